/**
 * FORMATS.md §1.10's structure rules for a resumable Claude Code transcript, checked from the written text
 * alone (independently of the planner's own pairing code). Returns the broken rules, [] when all hold.
 */
import { arrayElements, memberText, objectMembers, topLevelMembers } from '../../../electron/forks/transcript-line';

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
  /** The fork's move: the source workspace's paths in what the model reads go from `from` to `to`. */
  readonly move?: { readonly from: string; readonly to: string };
}

const escapeRegex = (s: string): string => s.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

/**
 * The message the copy should hold: the source's, with the folder moved in prompts, text blocks, tool inputs
 * and tool results (a regex of its own, independent of the code under test), and nothing else changed.
 */
function expectedMessage(message: unknown, move: { readonly from: string; readonly to: string }): unknown {
  const pattern = new RegExp(`(?<![A-Za-z0-9._~\\-/\\\\])${escapeRegex(move.from)}(?![A-Za-z0-9_~-]|\\.[A-Za-z0-9_~.-])`, 'g');
  const moveIn = (value: unknown): unknown => {
    if (typeof value === 'string') return value.replace(pattern, () => move.to);
    if (Array.isArray(value)) return value.map(moveIn);
    if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, moveIn(inner)]));
    return value;
  };
  const moveContent = (content: unknown): unknown => {
    if (typeof content === 'string') return moveIn(content);
    if (!Array.isArray(content)) return content;
    return content.map((block: unknown) => {
      if (!isObject(block)) return block;
      if (block.type === 'text' && typeof block.text === 'string') return { ...block, text: moveIn(block.text) };
      if (block.type === 'tool_use' && 'input' in block) return { ...block, input: moveIn(block.input) };
      if (block.type === 'tool_result' && 'content' in block) return { ...block, content: moveContent(block.content) };
      return block;
    });
  };
  return isObject(message) && 'content' in message ? { ...message, content: moveContent(message.content) } : message;
}

/** The raw text of each content block of a line's message ([] when it has no block list). */
function rawBlocks(line: string): string[] {
  const message = topLevelMembers(line).get('message');
  if (message === undefined || line[message.start] !== '{') return [];
  const content = objectMembers(line, message.start).get('content');
  if (content === undefined || line[content.start] !== '[') return [];
  return arrayElements(line, content.start).map((span) => line.slice(span.start, span.end));
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
    const sourceJson = JSON.parse(source) as Json;
    if (memberText(source, 'message') !== memberText(line.text, 'message')) {
      // Only a moved folder may change the message, and only where the model reads paths.
      const moved = context.move !== undefined && JSON.stringify(expectedMessage(sourceJson.message, context.move)) !== JSON.stringify(sourceJson.message);
      if (!moved) problems.push(`line ${index + 1}: message bytes differ from the source`);
      else if (JSON.stringify(line.json.message) !== JSON.stringify(expectedMessage(sourceJson.message, context.move!))) {
        problems.push(`line ${index + 1}: the message is not the source's with the folder moved`);
      }
      // Thinking blocks (and anything but text, tool calls and tool results) keep their bytes.
      const before = rawBlocks(source);
      const after = rawBlocks(line.text);
      before.forEach((raw, i) => {
        const type = (JSON.parse(raw) as Json).type;
        if (type !== 'text' && type !== 'tool_use' && type !== 'tool_result' && after[i] !== raw) problems.push(`line ${index + 1}: a ${String(type)} block's bytes differ`);
      });
    }
    const strip = (json: Json): Json => {
      const { sessionId: _s, cwd: _c, parentUuid: _p, message: _m, ...rest } = json;
      return rest;
    };
    if (JSON.stringify(strip(sourceJson)) !== JSON.stringify(strip(line.json))) problems.push(`line ${index + 1}: fields besides the envelope differ`);
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
