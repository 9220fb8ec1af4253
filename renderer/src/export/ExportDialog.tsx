/**
 * Export a session or a branch (issue 15): the secrets found are listed first, each ticked to be redacted;
 * the user unticks what may stay, picks the format and the file, and what is written is the redacted export.
 */
import { useEffect, useMemo, useState } from 'react';
import type { ArborEvents } from '../../../shared/contract';
import type { ExportFormat, ExportPreview, ExportWritten, RedactionFinding } from '../../../shared/export';
import type { NodeSummary } from '../../../shared/model';
import { useAppState, useArborClient } from '../app/app-context';
import { KIND_LABELS, plural } from '../app/format';
import { useMounted } from '../app/use-mounted';
import { ErrorBox } from '../time-travel/ErrorBox';
import { Modal } from '../time-travel/Modal';
import type { ExportTarget } from './export-dialog-store';
import './export.css';

const FORMATS: readonly { readonly format: ExportFormat; readonly label: string; readonly hint: string }[] = [
  { format: 'md', label: 'Markdown', hint: 'for a pull request, an issue or a wiki' },
  { format: 'html', label: 'HTML', hint: 'one file that opens in any browser, offline, with no script' },
  { format: 'json', label: 'JSON', hint: 'every step and tool call as data (arbor-export v1)' },
];

type Scope = 'branch' | 'session';

export function ExportDialog({ target, onClose }: { readonly target: ExportTarget; readonly onClose: () => void }) {
  const client = useArborClient();
  const graph = useAppState((s) => s.graph);
  const alive = useMounted();
  const [scope, setScope] = useState<Scope>(target.nodeId !== null ? 'branch' : 'session');
  const exportTarget = scope === 'branch' && target.nodeId !== null ? target.nodeId : target.sessionId;
  const [preview, setPreview] = useState<ExportPreview | null>(null);
  const [format, setFormat] = useState<ExportFormat>('md');
  const [path, setPath] = useState<string | null>(null);
  const [kept, setKept] = useState<ReadonlySet<string>>(new Set());
  const [overwrite, setOverwrite] = useState(false);
  const [writing, setWriting] = useState(false);
  const [written, setWritten] = useState<ExportWritten | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [progress, setProgress] = useState<ArborEvents['export.progress'] | null>(null);

  useEffect(() => client.on('export.progress', (event) => event.target === exportTarget && setProgress(event)), [client, exportTarget]);
  useEffect(() => {
    let current = true;
    setPreview(null);
    setError(null);
    setKept(new Set());
    client.call('export.preview', { target: exportTarget }).then(
      (result) => current && setPreview(result),
      (cause: unknown) => current && setError(cause),
    );
    return () => {
      current = false;
    };
  }, [client, exportTarget]);

  const suggested = preview === null ? '' : joinPath(preview.suggestedDir, `${preview.suggestedName}.${format}`);
  const out = path ?? suggested;
  const nodes = useMemo(() => new Map((graph?.nodes ?? []).map((node) => [node.id, node])), [graph]);

  const write = async () => {
    if (preview === null || out.trim() === '') return;
    setError(null);
    setWriting(true);
    try {
      const result = await client.call('export.write', { target: exportTarget, format, out: out.trim(), keep: [...kept], overwrite });
      if (alive.current) setWritten(result);
    } catch (cause) {
      if (alive.current) setError(cause);
    } finally {
      if (alive.current) setWriting(false);
    }
  };

  if (written !== null) {
    return (
      <Modal
        title="Export"
        onClose={onClose}
        testId="export-dialog"
        footer={
          <button type="button" className="primary-button" data-autofocus onClick={onClose}>
            Done
          </button>
        }
      >
        <div className="tt-done" role="status" data-testid="export-written">
          Exported {plural(written.nodes, 'step')} to <code className="tt-dir">{written.path}</code>
          <div className="muted">
            {written.redacted === 0 ? 'Nothing redacted' : `${plural(written.redacted, 'secret')} redacted`}
            {written.kept > 0 ? `, ${written.kept} left as ${written.kept === 1 ? 'it was' : 'they were'}` : ''} · {formatBytes(written.bytes)}
          </div>
        </div>
      </Modal>
    );
  }

  const findings = preview?.findings ?? [];
  return (
    <Modal
      title="Export"
      onClose={onClose}
      busy={writing}
      size="list"
      testId="export-dialog"
      footer={
        <>
          <button type="button" className="secondary-button" onClick={onClose} disabled={writing}>
            Cancel
          </button>
          <button type="submit" form="export-form" className="primary-button" data-testid="export-write" disabled={writing || preview === null || out.trim() === ''}>
            {writing ? 'Exporting…' : `Export ${FORMATS.find((f) => f.format === format)!.label}`}
          </button>
        </>
      }
    >
      <form
        id="export-form"
        className="tt-form export-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (!writing) void write();
        }}
      >
        {target.nodeId !== null ? (
          <fieldset className="export-choice" disabled={writing}>
            <legend className="tt-field__label">What</legend>
            <label>
              <input type="radio" name="export-scope" checked={scope === 'branch'} onChange={() => setScope('branch')} /> The branch through the selected step
            </label>
            <label>
              <input type="radio" name="export-scope" checked={scope === 'session'} onChange={() => setScope('session')} /> The session's latest branch
            </label>
          </fieldset>
        ) : null}
        <fieldset className="export-choice" disabled={writing}>
          <legend className="tt-field__label">Format</legend>
          {FORMATS.map((option) => (
            <label key={option.format}>
              <input type="radio" name="export-format" value={option.format} checked={format === option.format} onChange={() => setFormat(option.format)} data-testid={`export-format-${option.format}`} />{' '}
              {option.label} <span className="export-choice__hint">{option.hint}</span>
            </label>
          ))}
        </fieldset>
        <Findings preview={preview} findings={findings} nodes={nodes} kept={kept} setKept={setKept} disabled={writing} progress={progress} />
        <label className="tt-field">
          <span className="tt-field__label">File</span>
          <input
            className="text-input tt-field__input"
            data-testid="export-path"
            value={out}
            onChange={(event) => setPath(event.target.value)}
            placeholder="An absolute path"
            spellCheck={false}
            disabled={writing || preview === null}
          />
        </label>
        <label className="export-check">
          <input type="checkbox" checked={overwrite} onChange={(event) => setOverwrite(event.target.checked)} disabled={writing} data-testid="export-overwrite" /> Replace the file if it
          exists
        </label>
        {error ? <ErrorBox error={error} what={preview === null ? 'The export could not be prepared.' : 'The export was not written.'} /> : null}
      </form>
    </Modal>
  );
}

function Findings(props: {
  readonly preview: ExportPreview | null;
  readonly findings: readonly RedactionFinding[];
  readonly nodes: ReadonlyMap<string, NodeSummary>;
  readonly kept: ReadonlySet<string>;
  readonly setKept: (kept: ReadonlySet<string>) => void;
  readonly disabled: boolean;
  readonly progress: ArborEvents['export.progress'] | null;
}) {
  const { preview, findings, nodes, kept, setKept, disabled, progress } = props;
  if (preview === null) {
    const determinate = progress !== null && progress.phase === 'scan' && progress.total > 0;
    return (
      <div className="tt-progress" role="status" data-testid="export-scanning">
        <span>Looking for secrets{determinate ? ` — ${progress.done} / ${progress.total} steps` : '…'}</span>
        {determinate ? <progress className="tt-progress__bar" max={progress.total} value={progress.done} /> : <progress className="tt-progress__bar" />}
      </div>
    );
  }
  const toggle = (id: string, redact: boolean) => {
    const next = new Set(kept);
    if (redact) next.delete(id);
    else next.add(id);
    setKept(next);
  };
  return (
    <section className="export-findings" data-testid="export-findings" aria-labelledby="export-findings-title">
      <h3 id="export-findings-title" className="tt-field__label">
        {findings.length === 0
          ? `No secrets found in ${plural(preview.nodes, 'step')}`
          : `${plural(findings.length, 'secret')} found in ${plural(preview.nodes, 'step')} — ticked ones are redacted`}
      </h3>
      {preview.findingsCapped ? <p className="tt-field__hint">Only the first {findings.length} are listed; every one found is redacted.</p> : null}
      {findings.length > 0 ? (
        <ul className="export-findings__list">
          {findings.map((finding) => {
            const node = finding.nodeId === null ? null : (nodes.get(finding.nodeId) ?? null);
            const where = node === null ? (finding.nodeId === null ? 'Session title' : 'A step') : `${KIND_LABELS[node.kind]}${node.timestamp ? ` · ${shortTime(node.timestamp)}` : ''}`;
            const redacted = !kept.has(finding.id);
            return (
              <li key={finding.id} className={`export-finding${redacted ? '' : ' is-kept'}`} data-testid="export-finding" data-finding-id={finding.id} data-rule={finding.rule}>
                <label className="export-finding__label">
                  <input type="checkbox" checked={redacted} disabled={disabled} onChange={(event) => toggle(finding.id, event.target.checked)} aria-label={`Redact ${finding.rule} in ${where}, ${finding.field}`} />
                  <span className="export-finding__rule">{finding.rule}</span>
                  <span className="export-finding__where">
                    {where} — {finding.field}
                  </span>
                </label>
                <code className="export-finding__excerpt">{finding.excerpt}</code>
              </li>
            );
          })}
        </ul>
      ) : null}
    </section>
  );
}

/** The preview's folder and file name joined with the folder's own separator (Windows paths have `\`). */
function joinPath(dir: string, name: string): string {
  if (dir === '') return name;
  const separator = dir.includes('\\') && !dir.includes('/') ? '\\' : '/';
  return dir.endsWith(separator) ? `${dir}${name}` : `${dir}${separator}${name}`;
}

function shortTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

function formatBytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
