/**
 * A node's content for the inspector, read back from its stored raw line: normalized ContentBlocks plus the
 * envelope fields NodeDetail shows. Runs on demand (one node at a time), not in the import hot path.
 * Images and other base64 payloads never reach the UI: they become sizes.
 */
import type { ContentBlock, TokenUsage } from '../../../shared/model';
import { isObject, objectField, readUsage, stringField, toolResultText, type JsonObject } from './json-shape';
import { base64Bytes } from './label-text';
import { serverResultText, systemText2026 } from './records-2026';

export interface NodeContent {
  readonly blocks: ContentBlock[];
  readonly usage: TokenUsage | null;
  readonly cwd: string | null;
  readonly gitBranch: string | null;
  readonly version: string | null;
  readonly model: string | null;
}

/** Fields every conversational line carries; left out of `other` blocks because NodeDetail shows them apart. */
const ENVELOPE_KEYS = new Set([
  'type', 'uuid', 'parentUuid', 'logicalParentUuid', 'isSidechain', 'sessionId', 'timestamp', 'cwd', 'version',
  'gitBranch', 'userType', 'slug', 'entrypoint', 'agentId', 'teamName', 'isMeta', 'requestId', 'promptId',
]);

/** Strings longer than this inside `other` blocks are cut: the raw line holds them whole. */
const OTHER_STRING_LIMIT = 64 * 1024;

export function readNodeContent(raw: string): NodeContent {
  const entry = parseEntry(raw);
  if (entry === null) {
    return { blocks: [{ type: 'other', blockType: 'unreadable', json: null }], usage: null, cwd: null, gitBranch: null, version: null, model: null };
  }
  const message = objectField(entry, 'message');
  return {
    blocks: entryBlocks(entry, message),
    usage: readUsage(message),
    cwd: stringField(entry, 'cwd'),
    gitBranch: stringField(entry, 'gitBranch'),
    version: stringField(entry, 'version'),
    model: message === null ? null : stringField(message, 'model'),
  };
}

/** The tool results on a node's line, with their full text (for ToolCallDetail.resultText). */
export function readToolResults(raw: string): { readonly toolUseId: string; readonly text: string; readonly isError: boolean }[] {
  return readNodeContent(raw).blocks.flatMap((block) =>
    block.type === 'tool_result' ? [{ toolUseId: block.toolUseId, text: block.text, isError: block.isError }] : [],
  );
}

/**
 * The line's `toolUseResult` exactly as written (FORMATS.md §1.4: Edit/Write `originalFile`, `structuredPatch`,
 * Task `agentId`, …), or null. Main side only: it can hold whole files and base64 images.
 */
export function readToolUseResult(raw: string): unknown {
  const entry = parseEntry(raw);
  return entry === null ? null : (entry.toolUseResult ?? null);
}

function parseEntry(raw: string): JsonObject | null {
  try {
    const value: unknown = JSON.parse(raw);
    return isObject(value) ? value : null;
  } catch {
    return null; // a line cut at RAW_LIMIT, or not JSON
  }
}

function entryBlocks(entry: JsonObject, message: JsonObject | null): ContentBlock[] {
  const type = stringField(entry, 'type');
  switch (type) {
    case 'user':
    case 'assistant': {
      const content = message === null ? undefined : message.content;
      if (typeof content === 'string') return [{ type: 'text', text: content }];
      if (Array.isArray(content)) return content.flatMap(messageBlock);
      return [{ type: 'other', blockType: type, json: sanitize(withoutEnvelope(entry)) }];
    }
    case 'system':
      return systemBlocks(entry);
    case 'progress':
      return [otherBlock('progress', objectField(entry, 'data'))];
    case 'attachment':
      return [otherBlock('attachment', objectField(entry, 'attachment'))];
    default:
      return [{ type: 'other', blockType: type ?? 'unknown', json: sanitize(withoutEnvelope(entry)) }];
  }
}

function messageBlock(item: unknown): ContentBlock[] {
  if (typeof item === 'string') return [{ type: 'text', text: item }];
  if (!isObject(item)) return [{ type: 'other', blockType: typeof item, json: item }];
  switch (item.type) {
    case 'text':
      return [{ type: 'text', text: stringField(item, 'text') ?? '' }];
    case 'thinking':
      return [{ type: 'thinking', text: stringField(item, 'thinking') ?? '', redacted: false }];
    case 'redacted_thinking':
      return [{ type: 'thinking', text: '', redacted: true }];
    case 'tool_use':
      return [{ type: 'tool_use', id: stringField(item, 'id') ?? '', name: stringField(item, 'name') ?? '', input: sanitize(item.input, Infinity) }];
    case 'tool_result': {
      const result: ContentBlock = {
        type: 'tool_result',
        toolUseId: stringField(item, 'tool_use_id') ?? '',
        text: toolResultText(item.content),
        isError: item.is_error === true,
      };
      const images = Array.isArray(item.content) ? item.content.filter((part) => isObject(part) && part.type === 'image') : [];
      return [result, ...images.map((image) => imageBlock(image as JsonObject))];
    }
    case 'image':
      return [imageBlock(item)];
    default: {
      const other: ContentBlock = { type: 'other', blockType: typeof item.type === 'string' ? item.type : 'unknown', json: sanitize(item) };
      // A server tool's result (the advisor's, a web search's) says what it answered, beside the block itself.
      const server = serverResultText(item);
      return server === null ? [other] : [{ type: 'text', text: server.text === '' ? server.label : `${server.name}: ${server.text}` }, other];
    }
  }
}

function imageBlock(image: JsonObject): ContentBlock {
  const source = objectField(image, 'source');
  const data = source === null ? null : stringField(source, 'data');
  return {
    type: 'image',
    mediaType: (source === null ? null : stringField(source, 'media_type')) ?? 'application/octet-stream',
    bytes: data === null ? 0 : base64Bytes(data),
  };
}

function systemBlocks(entry: JsonObject): ContentBlock[] {
  const content = stringField(entry, 'content');
  const subtype = stringField(entry, 'subtype');
  const blocks: ContentBlock[] = [{ type: 'text', text: content ?? systemText2026(entry, subtype) ?? `System: ${subtype ?? 'message'}` }];
  const details = withoutEnvelope(entry, ['subtype', 'content', 'level']);
  if (Object.keys(details).length > 0) blocks.push({ type: 'other', blockType: `system:${subtype ?? 'message'}`, json: sanitize(details) });
  return blocks;
}

function otherBlock(kind: string, data: JsonObject | null): ContentBlock {
  const subtype = data === null ? null : stringField(data, 'type');
  return { type: 'other', blockType: subtype === null ? kind : `${kind}:${subtype}`, json: sanitize(data) };
}

function withoutEnvelope(entry: JsonObject, alsoShown: readonly string[] = []): Record<string, unknown> {
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) if (!ENVELOPE_KEYS.has(key) && !alsoShown.includes(key)) rest[key] = value;
  return rest;
}

/** Replaces base64 payloads by their size and cuts very long strings, so `json` stays light for the UI. */
export function sanitize(value: unknown, stringLimit = OTHER_STRING_LIMIT, depth = 0): unknown {
  if (typeof value === 'string') {
    return value.length > stringLimit ? `${value.slice(0, stringLimit)}… [${value.length - stringLimit} more chars]` : value;
  }
  if (depth > 32 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => sanitize(item, stringLimit, depth + 1));
  const object = value as JsonObject;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(object)) {
    if (isBase64Payload(object, key, item)) out[key] = `[base64, ${base64Bytes(item as string)} bytes]`;
    else out[key] = sanitize(item, stringLimit, depth + 1);
  }
  return out;
}

function isBase64Payload(object: JsonObject, key: string, value: unknown): boolean {
  if (typeof value !== 'string' || value.length < 256) return false;
  return key === 'base64' || (key === 'data' && (object.type === 'base64' || typeof object.media_type === 'string'));
}
