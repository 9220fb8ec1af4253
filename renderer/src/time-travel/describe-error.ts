import { ArborError } from '../../../shared/errors';

/** An error as the dialogs show it: the message, and the stable code beside it for bug reports. */
export function describeError(error: unknown): { readonly code: string; readonly message: string } {
  if (error instanceof ArborError) return { code: error.code, message: error.message };
  return { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) };
}
