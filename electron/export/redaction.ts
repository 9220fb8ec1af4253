/**
 * Redaction of an export's nodes before anything is written: every text an export can carry (the title,
 * prompts, replies, thinking, tool inputs at any depth, results, file paths) is scanned as decoded text, each
 * secret found becomes a finding with a stable id, and the nodes are rebuilt with the findings the user did
 * not keep replaced by `[REDACTED:<rule>]`. Many nodes are scanned in one call (secretlint's cost is mostly per
 * call), and a hit is cut back to the field it lies in.
 */
import { createHash } from 'node:crypto';
import type { ExportedNode, RedactionFinding } from '../../shared/export';
import type { SecretHit, SecretScanner } from './secret-scan';

/** One scanned text: which node, which field (`path` finds it again, `field` says it to the user). */
export interface ExportField {
  readonly nodeId: string | null;
  readonly path: string;
  readonly field: string;
  readonly text: string;
}

export interface FieldFinding {
  readonly finding: RedactionFinding;
  readonly start: number;
  readonly end: number;
}

/** Keys that hold ids, kinds and times rather than text (outside a tool call's input, which is all text). */
const STRUCTURAL = new Set(['id', 'parentId', 'kind', 'timestamp', 'model', 'agentRun', 'resultOf', 'type', 'toolUseId', 'toolCallId', 'outcome', 'action', 'mediaType', 'blockType', 'name', 'exitCode', 'durationMs', 'branch', 'redacted', 'isError', 'bytes']);

/** Every text field of a node, in a fixed order. */
export function fieldsOf(node: ExportedNode): ExportField[] {
  const fields: ExportField[] = [];
  mapStrings(node, '', false, (path, text) => {
    fields.push({ nodeId: node.id, path, field: describeField(node, path), text });
    return text;
  });
  return fields;
}

/** The node with `replace(path, text)` applied to each of its text fields. */
export function mapNodeStrings(node: ExportedNode, replace: (path: string, text: string) => string): ExportedNode {
  return mapStrings(node, '', false, replace) as ExportedNode;
}

function mapStrings(value: unknown, path: string, inInput: boolean, replace: (path: string, text: string) => string): unknown {
  if (typeof value === 'string') return replace(path, value);
  if (Array.isArray(value)) return value.map((item, i) => mapStrings(item, `${path}.${i}`, inInput, replace));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const at = path === '' ? key : `${path}.${key}`;
    out[key] = !inInput && STRUCTURAL.has(key) ? item : mapStrings(item, at, inInput || (key === 'input' && path.startsWith('toolCalls.')), replace);
  }
  return out;
}

function describeField(node: ExportedNode, path: string): string {
  const [group, index, key, ...rest] = path.split('.');
  if (group === 'label') return 'summary';
  if (group === 'blocks') {
    const block = node.blocks[Number(index)];
    if (block?.type === 'text') return node.kind === 'user' ? 'prompt' : 'text';
    return block?.type === 'tool_result' ? 'tool result' : (block?.type ?? 'block');
  }
  if (group === 'toolCalls') {
    const call = node.toolCalls[Number(index)];
    return `tool ${call?.name ?? '?'} ${key === 'input' ? ['input', ...rest].join('.') : (key ?? '')}`.trim();
  }
  if (group === 'fileEffects') return 'file path';
  return path;
}

/** Scans fields in batches of about BATCH_CHARS: one scanner call per batch. */
const BATCH_CHARS = 256 * 1024;
const SEPARATOR = '\n\n';

export async function scanFields(fields: readonly ExportField[], scan: SecretScanner): Promise<FieldFinding[][]> {
  const found: FieldFinding[][] = fields.map(() => []);
  let from = 0;
  while (from < fields.length) {
    let to = from;
    let chars = 0;
    while (to < fields.length && (to === from || chars + fields[to]!.text.length <= BATCH_CHARS)) chars += fields[to++]!.text.length + SEPARATOR.length;
    const starts: number[] = [];
    let text = '';
    for (let i = from; i < to; i++) {
      starts.push(text.length);
      text += fields[i]!.text + SEPARATOR;
    }
    const hits = await scan(text);
    for (const hit of hits) {
      // Each field a hit touches gets the part of it inside the field.
      for (let i = lastAtOrBefore(starts, hit.start); i >= 0 && i < starts.length && starts[i]! < hit.end; i++) {
        const field = fields[from + i]!;
        const start = Math.max(0, hit.start - starts[i]!);
        const end = Math.min(field.text.length, hit.end - starts[i]!);
        if (end > start) found[from + i]!.push({ finding: findingOf(field, { ...hit, start, end }), start, end });
      }
    }
    from = to;
  }
  for (let i = 0; i < fields.length; i++) {
    const hits = found[i]!;
    if (hits.length > 0) found[i] = hits.map((hit) => ({ ...hit, finding: { ...hit.finding, excerpt: excerptOf(fields[i]!.text, hit, hits) } }));
  }
  return found;
}

function lastAtOrBefore(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

function findingOf(field: ExportField, hit: SecretHit): RedactionFinding {
  const secret = field.text.slice(hit.start, hit.end);
  const id = createHash('sha256').update(`${field.nodeId ?? ''}\0${field.path}\0${hit.start}\0${hit.rule}\0${secret}`).digest('hex').slice(0, 16);
  return { id, rule: hit.rule, nodeId: field.nodeId, field: field.field, excerpt: '' };
}

/** The secret's surroundings on its line, every secret in them masked. */
export function excerptOf(text: string, hit: { start: number; end: number }, all: readonly { start: number; end: number }[]): string {
  const lineStart = text.lastIndexOf('\n', hit.start - 1) + 1;
  const lineEnd = text.indexOf('\n', hit.start);
  const from = Math.max(lineStart, hit.start - 30);
  const to = Math.min(lineEnd < 0 ? text.length : Math.max(lineEnd, hit.start + 1), hit.end + 30, text.length);
  let out = '';
  let at = from;
  for (const other of [...all].sort((a, b) => a.start - b.start)) {
    if (other.end <= from || other.start >= to || other.start < at) continue;
    out += text.slice(at, other.start) + maskOf(text.slice(other.start, other.end));
    at = other.end;
  }
  out += text.slice(at, to);
  return `${from > lineStart ? '…' : ''}${out.replace(/\s+/g, ' ').trim()}${to < (lineEnd < 0 ? text.length : lineEnd) ? '…' : ''}`;
}

/** Only a kind's marker stays readable (`ghp_`, `xoxb-`, `sk-`, `https:`, `-----BEGIN`): never the secret's own characters. */
function maskOf(secret: string): string {
  const marker = /^(?:-----BEGIN [A-Z ]+-----|[A-Za-z]{1,10}[_:-])/.exec(secret);
  return `${marker !== null && marker[0].length < secret.length / 2 ? marker[0] : ''}${'•'.repeat(8)}`;
}

export function redactionMark(rule: string): string {
  return `[REDACTED:${rule}]`;
}

/** The text with each finding `redact` says yes to replaced by its mark. */
export function redactText(text: string, hits: readonly FieldFinding[], redact: (finding: RedactionFinding) => boolean): string {
  let out = '';
  let at = 0;
  for (const hit of [...hits].sort((a, b) => a.start - b.start)) {
    if (!redact(hit.finding) || hit.start < at) continue;
    out += text.slice(at, hit.start) + redactionMark(hit.finding.rule);
    at = hit.end;
  }
  return at === 0 ? text : out + text.slice(at);
}
