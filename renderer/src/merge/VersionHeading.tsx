import type { TitledVersion, VersionTitle } from './side-titles';

/**
 * A version's title bar: a heading with its role ("Ours") and what it is, and where it comes from below.
 * The tooltip has what the line cannot hold (the full path, the full prompt, the node id).
 */
export function VersionHeading({ id, version, heading }: { id: string; version: TitledVersion; heading: VersionTitle }) {
  return (
    <header className={`merge-pane__head merge-pane__head--${version}`} title={heading.tooltip} data-testid={`merge-title-${version}`}>
      <span className={`merge-side-dot merge-side-dot--${version}`} aria-hidden="true" />
      <div className="merge-pane__names">
        <h3 className="merge-pane__title" id={id}>
          <span className={`merge-pane__role merge-pane__role--${version}`}>{heading.role}</span>
          <span className="merge-pane__visually-hidden">: </span>
          <span className="merge-pane__what">{heading.title}</span>
        </h3>
        {heading.detail !== null ? <span className="merge-pane__subtitle">{heading.detail}</span> : null}
      </div>
    </header>
  );
}
