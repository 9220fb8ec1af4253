/**
 * FORMATS.md §1.10's structure rules for a resumable Claude Code transcript, checked from the written text
 * alone (independently of the planner's own pairing code). Returns the broken rules, [] when all hold.
 */
import { memberText } from '../../../electron/forks/transcript-line';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export interface CopiedLine {
  readonly text: string;
  readonly json: Json;
  readonly uuid: string | null;
}

export interface RuleContext {
  readonly sessionId: string;
  readonly target: string;
  /** False when the planner reported the target's own message dropped (a call with no recorded result). */
  readonly targetKept: boolean;
  /** The source line of a uuid, as the store holds it. */
  readonly sourceLine: (uuid: string) => string;
}

const blocksOf = (json: Json): Json[] => {
  const message = isObject(json.message) ? json.message : null;
  return message !== null && Array.isArray(message.content) ? message.content.filter(isObject) : [];
};
const toolUses = (json: Json): string[] => (json.type === 'assistant' ? blocksOf(json).filter((b) => b.type === 'tool_use').map((b) => String(b.id)) : []);
const toolResults = (json: Json): string[] =>
  json.type === 'user' ? blocksOf(json).filter((b) => b.type === 'tool_result').map((b) => String(b.tool_use_id)) : [];
const messageIdOf = (json: Json): string | null => (isObject(json.message) && typeof json.message.id === 'string' ? json.message.id : null);

export function parseCopy(text: string): { lines: CopiedLine[]; problems: string[] } {
  const problems: string[] = [];
  if (!text.endsWith('\n')) problems.push('the file does not end with a complete line');
  const lines: CopiedLine[] = [];
  text.split('\n').slice(0, -1).forEach((line, index) => {
    try {
      const json = JSON.parse(line) as unknown;
      if (!isObject(json)) throw new Error('not an object');
      lines.push({ text: line, json, uuid: typeof json.uuid === 'string' ? json.uuid : null });
    } catch (error) {
      problems.push(`line ${index + 1} is not a JSON object: ${String(error)}`);
    }
  });
  return { lines, problems };
}

export function checkResumableCopy(text: string, context: RuleContext): string[] {
  const { lines, problems } = parseCopy(text);
  if (lines.length === 0) return [...problems, 'the copy is empty'];
  lines.forEach((line, index) => {
    if (line.json.sessionId !== context.sessionId) problems.push(`line ${index + 1}: sessionId ${String(line.json.sessionId)}`);
    const expectedParent = index === 0 ? null : lines[index - 1]!.uuid;
    if (line.uuid === null || line.json.parentUuid !== expectedParent) problems.push(`line ${index + 1}: parentUuid ${String(line.json.parentUuid)} breaks the chain`);
    if (line.json.isSidechain === true) problems.push(`line ${index + 1}: a subagent line`);
    if (line.uuid === null) return;
    // Everything but the envelope fields is the source's bytes: in particular the message and its thinking blocks.
    const source = context.sourceLine(line.uuid);
    if (memberText(source, 'message') !== memberText(line.text, 'message')) problems.push(`line ${index + 1}: message bytes differ from the source`);
    const strip = (json: Json): Json => {
      const { sessionId: _s, cwd: _c, parentUuid: _p, ...rest } = json;
      return rest;
    };
    if (JSON.stringify(strip(JSON.parse(source) as Json)) !== JSON.stringify(strip(line.json))) problems.push(`line ${index + 1}: fields besides the envelope differ`);
  });

  // API messages: consecutive user/assistant lines of one role.
  const messages: { role: string; lines: CopiedLine[] }[] = [];
  for (const line of lines) {
    if (line.json.type !== 'user' && line.json.type !== 'assistant') continue;
    const last = messages.at(-1);
    if (last?.role === line.json.type) last.lines.push(line);
    else messages.push({ role: String(line.json.type), lines: [line] });
  }
  messages.forEach((message, index) => {
    const uses = message.lines.flatMap((line) => toolUses(line.json));
    const results = message.lines.flatMap((line) => toolResults(line.json));
    const next = messages[index + 1];
    const answered = new Set(next ? next.lines.flatMap((line) => toolResults(line.json)) : []);
    for (const id of uses) if (!answered.has(id)) problems.push(`tool_use ${id} is not answered in the next message`);
    const previous = messages[index - 1];
    const asked = new Set(previous ? previous.lines.flatMap((line) => toolUses(line.json)) : []);
    for (const id of results) if (!asked.has(id)) problems.push(`tool_result ${id} has no tool_use in the message before`);
  });

  // The target's turn is last: after it, only its own message's lines, tool results and side-channel lines.
  const at = lines.findIndex((line) => line.uuid === context.target);
  if (context.targetKept) {
    if (at < 0) problems.push('the target is not in the copy');
    const target = lines[at];
    for (const line of at < 0 ? [] : lines.slice(at + 1)) {
      const { json } = line;
      const sameMessage = json.type === 'assistant' && target !== undefined && messageIdOf(json) !== null && messageIdOf(json) === messageIdOf(target.json);
      const onlyResults = json.type === 'user' && toolResults(json).length > 0 && toolResults(json).length === blocksOf(json).length;
      const summary = json.type === 'user' && json.isCompactSummary === true && target?.json.subtype === 'compact_boundary';
      if ((json.type === 'user' || json.type === 'assistant') && !sameMessage && !onlyResults && !summary) {
        problems.push(`line ${line.uuid} after the target starts another turn`);
      }
    }
  } else if (at >= 0) {
    problems.push('the target is in the copy although the planner dropped it');
  }
  return problems;
}
