import { describeError } from './describe-error';

/** A failure inside a dialog: what went wrong, in the dialog itself rather than a banner behind it. */
export function ErrorBox({ error, what }: { readonly error: unknown; readonly what: string }) {
  const { code, message } = describeError(error);
  return (
    <div className="tt-error" role="alert" data-testid="time-travel-error" data-code={code}>
      <strong>{what}</strong> {message} <span className="tt-error__code">{code}</span>
    </div>
  );
}
