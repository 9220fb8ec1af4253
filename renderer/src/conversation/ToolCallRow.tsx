/**
 * One tool call as a compact row with its outcome inline: Edit as a diff, Write and Read as highlighted
 * code, Bash as the command with its output (ANSI colours drawn), a failure in red with the error's own
 * text, and a call with no result marked "outcome not recorded". A call with a format-neutral shape (a
 * Codex shell command, patch, plan, MCP call) is drawn by that shape (CallShapeView.tsx).
 */
import { memo, useState } from 'react';
import type { ToolCallDetail } from '../../../shared/model';
import { formatDuration } from '../app/format';
import { LongText, prettyJson } from '../inspector/LongText';
import { OutcomeBadge } from '../inspector/ToolCallView';
import { AnsiText } from './AnsiText';
import { CallShapeInput, DiffLines, ExitCode, ShellOutput } from './CallShapeView';
import { languageOf, tokenize } from './code-tokens';
import { callPath, callSubject, editPairs, errorText, lineDiff, readResultCode, relativeTo, shapeName, shapeSubject } from './tool-call-text';

const SHOWN_LINES = 24;
/** A file the agent read is context, not news: its first lines say which part it was. */
const READ_LINES = 10;

/** `cwd`: the agent's working directory, which paths are shown relative to. */
export const ToolCallRow = memo(function ToolCallRow({ call, cwd, full }: { call: ToolCallDetail; cwd: string | null; full: boolean }) {
  const duration = formatDuration(call.durationMs);
  const subject = call.shape ? shapeSubject(call.shape, cwd) : relativeTo(cwd, callSubject(call.name, call.input));
  return (
    <div className={`conv-call conv-call--${call.outcome}`} data-testid="conversation-call" data-tool={call.name} data-shape={call.shape?.kind} data-outcome={call.outcome}>
      <div className="conv-call__head">
        <span className="conv-call__name">{shapeName(call.name, call.shape)}</span>
        {subject ? (
          <span className="conv-call__subject" title={subject}>
            {subject}
          </span>
        ) : null}
        <OutcomeBadge outcome={call.outcome} />
        <ExitCode code={call.exitCode} />
        {duration ? <span className="conv-call__duration">{duration}</span> : null}
      </div>
      <CallBody call={call} cwd={cwd} full={full} />
    </div>
  );
});

function CallBody({ call, cwd, full }: { call: ToolCallDetail; cwd: string | null; full: boolean }) {
  const input = call.input as Record<string, unknown> | null;
  const edits = editPairs(call.name, call.input);
  const parts: React.ReactNode[] = [];
  if (full) parts.push(<LongText key="input" text={prettyJson(call.input)} className="code-block" limit={40} />);
  else if (call.shape) parts.push(<CallShapeInput key="shape" shape={call.shape} cwd={cwd} />);
  else if (call.name === 'Bash' && typeof input?.command === 'string') {
    parts.push(
      <pre key="command" className="conv-command">
        <span className="conv-command__prompt">$ </span>
        {input.command}
      </pre>,
    );
  } else if (edits.length > 0) {
    parts.push(...edits.map((edit, i) => <EditDiff key={`edit${i}`} before={edit.before} after={edit.after} />));
  } else if (call.name === 'Write' && typeof input?.content === 'string') {
    parts.push(<Code key="write" text={input.content} path={callPath(call.input)} />);
  } else if (!['Read', 'Agent', 'Task'].includes(call.name)) {
    parts.push(<LongText key="input" text={prettyJson(call.input)} className="code-block conv-input" limit={6} />);
  }
  parts.push(<CallOutcome key="outcome" call={call} />);
  return <>{parts}</>;
}

function CallOutcome({ call }: { call: ToolCallDetail }) {
  if (call.outcome === 'missing') {
    return (
      <div className="conv-call__missing" data-testid="conversation-missing">
        Requested; the outcome was not recorded (it may never have run).
      </div>
    );
  }
  const text = call.resultText;
  // A failed command's output is still terminal output (its colours drawn); the exit code says it failed.
  if (call.outcome === 'error' && call.shape?.kind === 'shell' && text !== null && text.trim() !== '') return <ShellOutput text={text} />;
  if (call.outcome === 'error') {
    return (
      <pre className="conv-call__error" data-testid="conversation-error">
        {text === null ? 'Failed (no error text recorded).' : errorText(text)}
      </pre>
    );
  }
  if (call.shape?.kind === 'shell') return <ShellOutput text={text ?? ''} running={call.running === true} />;
  if (text === null || text === '') return null;
  // A patch's or a plan's success message says nothing the diff or the checklist does not.
  if (call.shape?.kind === 'patch' || call.shape?.kind === 'plan') return null;
  // An Edit's or Write's success message says nothing the diff does not.
  if (call.name === 'Edit' || call.name === 'MultiEdit' || call.name === 'Write') return null;
  if (call.name === 'Read') {
    const code = readResultCode(text);
    if (code) return <Code text={code.code} path={callPath(call.input)} limit={READ_LINES} />;
  }
  if (call.name === 'Bash') return <Output text={text} />;
  return <LongText text={text} className="code-block conv-result" limit={12} />;
}

/** Text cut to its first lines, with "show all" (shared by output and code). */
function useShown(text: string, limit = SHOWN_LINES): { shown: string; more: number; toggle: () => void; expanded: boolean } {
  const [expanded, setExpanded] = useState(false);
  const lines = text.split('\n');
  const cut = !expanded && lines.length > limit;
  return { shown: cut ? lines.slice(0, limit).join('\n') : text, more: lines.length, toggle: () => setExpanded((v) => !v), expanded };
}

function ShowAll({ lines, expanded, toggle, limit = SHOWN_LINES }: { lines: number; expanded: boolean; toggle: () => void; limit?: number }) {
  if (lines <= limit) return null;
  return (
    <button type="button" className="link-button conv-show-all" onClick={toggle}>
      {expanded ? 'Show less' : `Show all ${lines} lines`}
    </button>
  );
}

function Output({ text }: { text: string }) {
  const { shown, more, toggle, expanded } = useShown(text.replace(/^\n+/, ''));
  return (
    <div>
      <pre className="conv-output" data-testid="conversation-output">
        <AnsiText text={shown} />
      </pre>
      <ShowAll lines={more} expanded={expanded} toggle={toggle} />
    </div>
  );
}

function Code({ text, path, limit = SHOWN_LINES }: { text: string; path: string | null; limit?: number }) {
  const { shown, more, toggle, expanded } = useShown(text, limit);
  const tokens = tokenize(shown, languageOf(path));
  return (
    <div>
      <pre className="conv-code" data-testid="conversation-code">
        {tokens.map((token, i) => (token.kind === 'plain' ? token.text : <span key={i} className={`tok-${token.kind}`}>{token.text}</span>))}
      </pre>
      <ShowAll lines={more} expanded={expanded} toggle={toggle} limit={limit} />
    </div>
  );
}

/** An Edit's change through the shared static diff. */
function EditDiff({ before, after }: { before: string; after: string }) {
  return <DiffLines lines={lineDiff(before, after)} />;
}
