import './truncated-path.css';

/**
 * A path on one line, cut in the middle when it does not fit: the folders give way (ending in "…") and the last
 * segment — the fork's folder name, the transcript's session id — stays readable. The whole path is the tooltip
 * and, in one hidden piece, what a screen reader reads (the two visible halves are flex items, which browsers
 * read with a break between them).
 */
export function TruncatedPath({ path, testId }: { readonly path: string; readonly testId?: string }) {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  const head = cut > 0 && cut < path.length - 1 ? path.slice(0, cut + 1) : '';
  const tail = head === '' ? path : path.slice(cut + 1);
  return (
    <code className="tt-dir truncated-path" title={path} data-testid={testId} data-path={path}>
      <span className="truncated-path__whole">{path}</span>
      {head !== '' ? (
        <span className="truncated-path__head" aria-hidden="true">
          {head}
        </span>
      ) : null}
      <span className="truncated-path__tail" aria-hidden="true">
        {tail}
      </span>
    </code>
  );
}
