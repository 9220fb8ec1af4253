/**
 * The Markdown export: one heading per step, prompts and replies as the Markdown they were written in, tool
 * calls as fenced blocks (commands, edits as diffs, results without terminal escapes). Transcript text is
 * untrusted: HTML tags outside code are written as text (`&lt;`), and script-like link targets are disabled,
 * so a viewer that renders raw HTML in Markdown still runs nothing from the transcript.
 */
import type { ExportedNode, ExportedToolCall } from '../../shared/export';
import { entryLabels, LEDGER_OUTCOME_TEXT, replayText, type LedgerEntry } from '../../shared/side-effect-ledger';
import type { ExportHeadInfo, ExportTail, ExportWriter } from './export-writer';
import { callBodies, clipped, compactionSummary, outcomeLabel, roleOf, stripAnsi } from './step-text';

export function markdownExportWriter(): ExportWriter {
  let inRun: string | null = null;
  let afterCompaction = false;
  return {
    head: (info) => headOf(info),
    nodes(nodes) {
      let out = '';
      for (const node of nodes) {
        if (node.resultOf !== null) continue;
        if (node.agentRun !== inRun) {
          if (node.agentRun !== null) out += `\n> **Subagent run** (spawned by the call above)\n`;
          else out += `\n> **End of subagent run**\n`;
          inRun = node.agentRun;
        }
        out += node.kind === 'compaction' ? compactionOf(node, afterCompaction) : stepOf(node);
        afterCompaction = node.kind === 'compaction';
      }
      return out;
    },
    tail: (tail) => `\n---\n\n${sideEffectsOf(tail.sideEffects)}${tailLine(tail)}\n`,
  };
}

function headOf(info: ExportHeadInfo): string {
  const { session } = info;
  const rows = [
    `- Session: \`${session.id}\` (${session.source})`,
    session.project !== null ? `- Project: ${code(session.project)}` : null,
    `- Started: ${session.startedAt ?? 'unknown'} · updated: ${session.updatedAt ?? 'unknown'}`,
    info.through !== null ? `- Branch through \`${info.through}\`, ending at \`${info.head ?? '-'}\`` : `- Branch ending at \`${info.head ?? '-'}\` (the session's latest work)`,
    ...info.links.map((link) => `- ${linkPhrase(link.kind, link.direction)} \`${link.sessionId}\`${link.title !== null ? ` (${inline(link.title)})` : ''}`),
    `- ${info.nodes} steps · exported by Arbor ${info.arborVersion} at ${info.exportedAt}`,
  ];
  return `# ${inline(session.title)}\n\n${rows.filter((row) => row !== null).join('\n')}\n`;
}

function linkPhrase(kind: string, direction: 'earlier' | 'later'): string {
  if (kind === 'fork') return direction === 'earlier' ? 'Forked from' : 'Forked into';
  if (kind === 'continues') return direction === 'earlier' ? 'Continues' : 'Continued in';
  return direction === 'earlier' ? 'Follows' : 'Followed by';
}

function tailLine(tail: ExportTail): string {
  if (tail.noRedact) return '_Exported without redaction._';
  const kept = tail.kept > 0 ? `; ${tail.kept} left as they were, by choice` : '';
  return `_${tail.redacted} secret${tail.redacted === 1 ? '' : 's'} redacted${kept}._`;
}

/** The side-effect ledger: one line per step that reached outside, a possible double effect under its request. */
function sideEffectsOf(entries: readonly LedgerEntry[]): string {
  if (entries.length === 0) return '## Side effects\n\n_No step reached outside the workspace._\n\n';
  let out = `## Side effects\n\n_${entries.length} step${entries.length === 1 ? '' : 's'} reached outside the workspace: no rewind or fork takes ${entries.length === 1 ? 'it' : 'them'} back._\n\n`;
  for (const entry of entries) {
    out += `- **${inline(entryLabels(entry).join(', '))}** · ${LEDGER_OUTCOME_TEXT[entry.outcome]} · ${code(entry.summary)} <sub>${entry.timestamp ?? ''} \`${entry.nodeId.slice(0, 8)}\`</sub>\n`;
    if (entry.replayOf !== null) out += `  - ⚠ ${inline(replayText(entry.replayOf))} Earlier: \`${entry.replayOf.nodeId.slice(0, 8)}\` (${LEDGER_OUTCOME_TEXT[entry.replayOf.outcome]})\n`;
  }
  return `${out}\n`;
}

/** The boundary and the summary line are two nodes: one divider, then the summary. */
function compactionOf(node: ExportedNode, afterCompaction: boolean): string {
  const summary = compactionSummary(node);
  return `${afterCompaction ? '' : `\n---\n\n**${inline(node.label)}**\n`}${summary === null ? '' : `\n${quote(summary)}\n`}`;
}

function stepOf(node: ExportedNode): string {
  if (node.kind === 'system' || node.kind === 'unknown') return `\n_${inline(node.label)}_\n`;
  const role = roleOf(node) ?? node.kind;
  const meta = [node.model !== null && node.kind !== 'user' ? node.model : null, node.timestamp].filter(Boolean).join(' · ');
  const branch = node.branch !== null ? ` — branch ${node.branch.index} of ${node.branch.of}` : '';
  let out = `\n### ${role}${branch}${meta !== '' ? ` <sub>${meta}</sub>` : ''}\n\n`;
  for (const block of node.blocks) {
    if (block.type === 'text') out += `${safeMarkdown(block.text)}\n\n`;
    else if (block.type === 'thinking') out += block.redacted ? '> _Thinking (redacted by the model)_\n\n' : `> _Thinking_\n>\n${quote(block.text)}\n\n`;
    else if (block.type === 'tool_result') out += `${block.isError ? '**Error**\n\n' : ''}${fence(clipped(stripAnsi(block.text)), 'text')}\n`;
    else if (block.type === 'image') out += `_[image: ${block.mediaType}, ${block.bytes} bytes]_\n\n`;
    else out += `_[${inline(block.blockType)}]_\n\n`;
  }
  for (const call of node.toolCalls) out += callOf(call);
  return out;
}

function callOf(call: ExportedToolCall): string {
  let out = `**${inline(call.name)}** · ${outcomeLabel(call.outcome)}${call.exitCode !== null && call.exitCode !== 0 ? ` (exit ${call.exitCode})` : ''}\n\n`;
  for (const body of callBodies(call)) {
    if (body.kind === 'command') out += fence(body.command, 'sh');
    else if (body.kind === 'diff') out += `${code(body.path)}\n\n${fence(body.lines.map((line) => (line.kind === 'hunk' ? '@@' : `${line.kind === 'added' ? '+' : line.kind === 'removed' ? '-' : ' '}${line.text}`)).join('\n'), 'diff')}`;
    else if (body.kind === 'file') out += `${code(body.path)}\n\n${fence(clipped(body.content), '')}`;
    else out += fence(body.json, 'json');
  }
  if (call.result !== null) out += `\n${call.outcome === 'error' ? 'Failed:' : 'Result:'}\n\n${fence(clipped(stripAnsi(call.result)), 'text')}`;
  return `${out}\n`;
}

/** A fenced block whose fence is longer than any backtick run inside it. */
export function fence(body: string, language: string): string {
  const longest = Math.max(2, ...Array.from(body.matchAll(/`+/g), (match) => match[0].length));
  const marks = '`'.repeat(longest + 1);
  return `${marks}${language}\n${body.replace(/\n$/, '')}\n${marks}\n`;
}

function code(value: string): string {
  const longest = Math.max(0, ...Array.from(value.matchAll(/`+/g), (match) => match[0].length));
  const marks = '`'.repeat(longest + 1);
  return `${marks}${longest > 0 ? ' ' : ''}${value.replace(/\n/g, ' ')}${longest > 0 ? ' ' : ''}${marks}`;
}

/** One line of plain text inside Markdown: its Markdown and HTML characters escaped. */
function inline(value: string): string {
  return value.replace(/\s+/g, ' ').replace(/([\\`*_[\]#<>|])/g, '\\$1');
}

function quote(value: string): string {
  return safeMarkdown(value)
    .split('\n')
    .map((line) => `> ${line}`.trimEnd())
    .join('\n');
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Transcript Markdown as written, minus what could run in a viewer that renders raw HTML: a `<` that could open
 * a tag, outside code, becomes `&lt;`; `javascript:`, `vbscript:` and `data:` link targets are disabled.
 */
export function safeMarkdown(value: string): string {
  let fenceMark: string | null = null;
  return value
    .split('\n')
    .map((line) => {
      const opened = FENCE.exec(line);
      if (fenceMark !== null) {
        if (opened && opened[1]![0] === fenceMark[0] && opened[1]!.length >= fenceMark.length) fenceMark = null;
        return line;
      }
      if (opened) {
        fenceMark = opened[1]!;
        return line;
      }
      return line
        .split(/(`+[^`]*`+)/)
        .map((part, i) => (i % 2 === 1 ? part : part.replace(/<(?=[A-Za-z/!?])/g, '&lt;').replace(/\]\(\s*(?:javascript|vbscript|data):/gi, '](#unsafe-link:')))
        .join('');
    })
    .join('\n');
}
