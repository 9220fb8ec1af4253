/**
 * A tool call drawn as what it is, from its format-neutral shape (shared/model.ts ToolCallShape), whatever
 * the agent called the tool: a shell command as `$ command`, a patch as one diff per file (Add / Update /
 * Delete / Move), a plan as a checklist. Shared by the conversation's rows and the inspector.
 */
import { memo, useState } from 'react';
import type { PatchFileChange, PlanStep, ToolCallShape } from '../../../shared/model';
import { AnsiText } from './AnsiText';
import { relativeTo, shapeName, shapeSubject, type DiffLine } from './tool-call-text';
import './conversation.css';

const SHOWN_LINES = 24;

/** What the call asked for; a `brief` call says it all in its head, so it has no body. */
export const CallShapeInput = memo(function CallShapeInput({ shape, cwd }: { shape: ToolCallShape; cwd: string | null }) {
  switch (shape.kind) {
    case 'shell':
      return (
        <pre className="conv-command" data-testid="conversation-command">
          <span className="conv-command__prompt">$ </span>
          {shape.command}
        </pre>
      );
    case 'patch':
      return (
        <div className="conv-patch" data-testid="conversation-patch">
          {shape.files.map((file, i) => (
            <PatchFile key={i} file={file} cwd={cwd} />
          ))}
        </div>
      );
    case 'plan':
      return <PlanChecklist explanation={shape.explanation} steps={shape.steps} />;
    case 'brief':
      return null;
  }
});

const ACTION_LABELS: Record<PatchFileChange['action'], string> = { add: 'Add', update: 'Update', delete: 'Delete', move: 'Move' };

function PatchFile({ file, cwd }: { file: PatchFileChange; cwd: string | null }) {
  const path = relativeTo(cwd, file.path);
  return (
    <div className="conv-patch__file" data-testid="conversation-patch-file" data-action={file.action}>
      <div className="conv-patch__head">
        <span className={`conv-patch__action conv-patch__action--${file.action}`}>{ACTION_LABELS[file.action]}</span>
        <span className="conv-patch__path" title={file.path}>
          {path}
          {file.movePath !== null ? ` → ${relativeTo(cwd, file.movePath)}` : ''}
        </span>
      </div>
      {file.lines.length > 0 ? <DiffLines lines={file.lines} /> : null}
    </div>
  );
}

/** A light static diff: one line each, +/- marked, `@@` hunk headers as separators; no editor mounted per row. */
export function DiffLines({ lines }: { lines: readonly (DiffLine | { readonly kind: 'hunk'; readonly text: string })[] }) {
  const [expanded, setExpanded] = useState(false);
  const shown = expanded ? lines : lines.slice(0, SHOWN_LINES * 2);
  return (
    <div>
      <div className="conv-diff" data-testid="conversation-diff">
        {shown.map((line, i) => (
          <div key={i} className={`conv-diff__line conv-diff__line--${line.kind}`}>
            <span className="conv-diff__mark">{line.kind === 'added' ? '+' : line.kind === 'removed' ? '-' : line.kind === 'hunk' ? '@@' : ' '}</span>
            <span className="conv-diff__text">{line.text || ' '}</span>
          </div>
        ))}
      </div>
      {lines.length > SHOWN_LINES * 2 ? (
        <button type="button" className="link-button conv-show-all" onClick={() => setExpanded((v) => !v)}>
          {expanded ? 'Show less' : `Show all ${lines.length} lines`}
        </button>
      ) : null}
    </div>
  );
}

const STEP_MARKS: Record<PlanStep['status'], string> = { completed: '✓', in_progress: '◐', pending: '○' };
const STEP_TITLES: Record<PlanStep['status'], string> = { completed: 'done', in_progress: 'in progress', pending: 'to do' };

function PlanChecklist({ explanation, steps }: { explanation: string | null; steps: readonly PlanStep[] }) {
  return (
    <div className="conv-plan" data-testid="conversation-plan">
      {explanation !== null ? <div className="conv-plan__explanation">{explanation}</div> : null}
      <ul className="conv-plan__steps">
        {steps.map((step, i) => (
          <li key={i} className={`conv-plan__step conv-plan__step--${step.status}`} data-status={step.status}>
            <span className="conv-plan__mark" title={STEP_TITLES[step.status]} aria-label={STEP_TITLES[step.status]}>
              {STEP_MARKS[step.status]}
            </span>
            <span className="conv-plan__text">{step.step}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * A command's output as a terminal shows it (ANSI colours drawn), cut to its first lines. `running`: the
 * command had not ended when the output was recorded, so an empty output is "no output yet", not none.
 */
export function ShellOutput({ text, running = false }: { text: string; running?: boolean }) {
  const [expanded, setExpanded] = useState(false);
  const body = text.replace(/^\n+/, '').replace(/\n+$/, '');
  const lines = body.split('\n');
  const cut = !expanded && lines.length > SHOWN_LINES;
  return (
    <div>
      {body.length > 0 ? (
        <pre className="conv-output" data-testid="conversation-output">
          <AnsiText text={cut ? lines.slice(0, SHOWN_LINES).join('\n') : body} />
        </pre>
      ) : (
        <div className="conv-output-empty muted" data-testid="conversation-output-empty">
          {running ? 'running — no output yet' : '(no output)'}
        </div>
      )}
      {running && body.length > 0 ? (
        <div className="conv-output-running muted" data-testid="conversation-output-running">
          still running when this was recorded
        </div>
      ) : null}
      {lines.length > SHOWN_LINES ? (
        <button type="button" className="link-button conv-show-all" onClick={() => setExpanded((v) => !v)}>
          {expanded ? 'Show less' : `Show all ${lines.length} lines`}
        </button>
      ) : null}
    </div>
  );
}

/** `exit 1` beside the outcome: the command's own word on how it went. */
export function ExitCode({ code }: { code: number | null | undefined }) {
  if (code === null || code === undefined) return null;
  return (
    <span className={`conv-exit ${code === 0 ? 'conv-exit--ok' : 'conv-exit--failed'}`} data-testid="conversation-exit-code" title="Exit code">
      exit {code}
    </span>
  );
}

/** A shaped call with no ToolCallDetail (nothing to pair with): its head and what it asked for. */
export function ShapedToolUse({ name, shape }: { name: string; shape: ToolCallShape }) {
  const subject = shapeSubject(shape, null);
  return (
    <div className="conv-call conv-call--ok" data-testid="conversation-call" data-tool={name} data-shape={shape.kind}>
      <div className="conv-call__head">
        <span className="conv-call__name">{shapeName(name, shape)}</span>
        {subject ? (
          <span className="conv-call__subject" title={subject}>
            {subject}
          </span>
        ) : null}
      </div>
      <CallShapeInput shape={shape} cwd={null} />
    </div>
  );
}
