import { useState } from 'react';
import type { MergeSide, MergeSideMessage } from '../../../shared/operations';
import { KIND_LABELS, absoluteTime, plural, relativeTime } from '../app/format';
import type { VersionTitle } from './side-titles';

function touches(message: MergeSideMessage, path: string | null): boolean {
  return path !== null && message.files.includes(path);
}

function SideMessages({ side, title, name, path, onlyFile }: { side: MergeSide; title: VersionTitle; name: 'ours' | 'theirs'; path: string | null; onlyFile: boolean }) {
  const shown = onlyFile ? side.messages.filter((m) => touches(m, path)) : side.messages;
  const relevant = side.messages.filter((m) => touches(m, path)).length;
  return (
    <section className={`merge-why__side merge-why__side--${name}`} data-testid={`merge-messages-${name}`}>
      <h3 className="merge-why__title">
        <span className={`merge-side-dot merge-side-dot--${name}`} aria-hidden="true" />
        <span>{name === 'ours' ? 'Ours' : 'Theirs'}</span>
        <span className="merge-why__label" title={title.tooltip}>
          {title.short}
        </span>
        <span className="muted">{path !== null && relevant > 0 ? `${relevant} touch this file` : plural(side.messages.length, 'step')}</span>
      </h3>
      {shown.length === 0 ? (
        <div className="merge-why__empty muted">{side.messages.length === 0 ? 'No steps since the fork point.' : 'No step touched this file.'}</div>
      ) : (
        <ol className="merge-why__list">
          {shown.map((message) => {
            const relevantHere = touches(message, path);
            return (
              <li key={message.nodeId} className={`merge-message ${relevantHere ? 'is-relevant' : ''}`} data-testid="merge-message" data-relevant={relevantHere ? 'true' : 'false'}>
                <div className="merge-message__head">
                  <span className={`kind-dot kind-dot--${message.kind}`} aria-hidden="true" />
                  <span className="merge-message__kind">{KIND_LABELS[message.kind]}</span>
                  {message.timestamp !== null ? (
                    <span className="merge-message__time" title={absoluteTime(message.timestamp)}>
                      {relativeTime(message.timestamp)}
                    </span>
                  ) : null}
                </div>
                <div className="merge-message__text">{message.text}</div>
                {message.files.length > 0 ? (
                  <div className="merge-message__files">
                    {message.files.map((file) => (
                      <code key={file} className={`merge-message__file ${file === path ? 'is-open' : ''}`}>
                        {file}
                      </code>
                    ))}
                  </div>
                ) : null}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

/** Beside the files: what each side's agent was asked and did since the fork point, so the user knows why. */
export function MergeMessages({
  ours,
  theirs,
  titles,
  path,
}: {
  ours: MergeSide;
  theirs: MergeSide;
  titles: { readonly ours: VersionTitle; readonly theirs: VersionTitle };
  path: string | null;
}) {
  const [onlyFile, setOnlyFile] = useState(false);
  return (
    <aside className="merge-why" aria-label="Why each side changed">
      <h2 className="merge-column-title">
        Why they changed
        <button type="button" className={`toggle-button ${onlyFile ? 'is-on' : ''}`} aria-pressed={onlyFile} onClick={() => setOnlyFile((v) => !v)} disabled={path === null}>
          This file only
        </button>
      </h2>
      <div className="merge-why__body">
        <SideMessages side={ours} title={titles.ours} name="ours" path={path} onlyFile={onlyFile} />
        <SideMessages side={theirs} title={titles.theirs} name="theirs" path={path} onlyFile={onlyFile} />
      </div>
    </aside>
  );
}
