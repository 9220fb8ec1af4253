import type { ToolCallDetail, ToolOutcome } from '../../../shared/model';
import { assertNever } from '../../../shared/errors';
import { formatDuration } from '../app/format';
import { CallShapeInput, ExitCode, ShellOutput } from '../conversation/CallShapeView';
import { shapeName, shapeSubject } from '../conversation/tool-call-text';
import { LongText, prettyJson } from './LongText';

export function outcomeLabel(outcome: ToolOutcome): string {
  switch (outcome) {
    case 'ok':
      return 'ok';
    case 'error':
      return 'error';
    case 'missing':
      return 'outcome not recorded';
    default:
      return assertNever(outcome, 'tool outcome');
  }
}

export function OutcomeBadge({ outcome }: { outcome: ToolOutcome }) {
  return (
    <span
      className={`badge badge--outcome badge--${outcome}`}
      data-testid="tool-outcome"
      title={outcome === 'missing' ? 'Requested, but the transcript holds no result: it may never have run.' : undefined}
    >
      {outcomeLabel(outcome)}
    </span>
  );
}

/**
 * One tool call: intent (name, input) and outcome (result, duration). A call with a format-neutral shape
 * shows it (a command, a per-file patch, a checklist) before its raw input, which stays one click away.
 */
export function ToolCallView({ call, cwd = null, onOpenNode }: { call: ToolCallDetail; cwd?: string | null; onOpenNode: (nodeId: string) => void }) {
  const duration = formatDuration(call.durationMs);
  const shape = call.shape;
  const subject = shape?.kind === 'brief' ? shapeSubject(shape, cwd) : '';
  return (
    <div className={`tool-call tool-call--${call.outcome}`} data-shape={shape?.kind}>
      <div className="tool-call__head">
        <span className="tool-call__name">{shapeName(call.name, shape)}</span>
        {subject ? <span className="tool-call__subject" title={subject}>{subject}</span> : null}
        <OutcomeBadge outcome={call.outcome} />
        <ExitCode code={call.exitCode} />
        {duration ? <span className="tool-call__duration" title="Time between the call and its result">{duration}</span> : null}
        <span className="tool-call__id" title="tool_use id">
          {call.id}
        </span>
      </div>
      {shape && shape.kind !== 'brief' ? (
        <>
          <div className="field-label">{shape.kind === 'shell' ? 'Command' : shape.kind === 'patch' ? 'Changes' : 'Plan'}</div>
          <CallShapeInput shape={shape} cwd={cwd} />
          <details className="tool-call__raw">
            <summary>Raw input</summary>
            <LongText text={prettyJson(call.input)} className="code-block" limit={40} />
          </details>
        </>
      ) : (
        <>
          <div className="field-label">Input</div>
          <LongText text={prettyJson(call.input)} className="code-block" limit={40} />
        </>
      )}
      {call.outcome === 'missing' ? (
        <div className="tool-call__missing">Requested; the outcome was not recorded (it may never have run).</div>
      ) : (
        <>
          <div className="field-label">
            Result
            {call.resultNodeId ? (
              <button type="button" className="link-button" onClick={() => onOpenNode(call.resultNodeId as string)}>
                go to result node
              </button>
            ) : null}
          </div>
          {shape?.kind === 'shell' && call.resultText !== null ? (
            <ShellOutput text={call.resultText} running={call.running === true} />
          ) : call.resultText !== null ? (
            <LongText text={call.resultText} className={call.outcome === 'error' ? 'code-block is-error' : 'code-block'} />
          ) : (
            <div className="muted">No result text.</div>
          )}
        </>
      )}
    </div>
  );
}
