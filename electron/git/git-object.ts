/**
 * Git's object formats (blob, tree, commit), encoded and hashed by hand: isomorphic-git's writers cost
 * 5–10× native git per object, and the snapshot store writes tens of thousands of them per capture.
 * Oids are lowercase hex strings at the boundary, 20-byte Buffers inside packs.
 */
import { createHash } from 'node:crypto';
import { ArborError } from '../../shared/errors';

export type ObjectType = 'commit' | 'tree' | 'blob' | 'tag';

/** The modes a snapshot can hold; `040000` is written `40000` as git does. */
export type FileMode = '100644' | '100755' | '120000';
export type TreeEntryMode = FileMode | '40000' | '160000';

export interface TreeEntry {
  readonly mode: TreeEntryMode;
  readonly name: string;
  readonly oid: string;
}

export interface GitObject {
  readonly type: ObjectType;
  readonly body: Buffer;
}

export interface GitIdentity {
  readonly name: string;
  readonly email: string;
  /** Seconds since the epoch. */
  readonly timestamp: number;
  /** Minutes east of UTC (git's sign convention is the opposite of Date#getTimezoneOffset). */
  readonly timezoneOffsetMinutes: number;
}

export interface CommitFields {
  readonly tree: string;
  readonly parents: readonly string[];
  readonly author: GitIdentity;
  readonly committer: GitIdentity;
  readonly message: string;
}

export const EMPTY_TREE_OID = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

export function objectHeader(type: ObjectType, length: number): Buffer {
  return Buffer.from(`${type} ${length}\0`, 'latin1');
}

/** sha1 over `type len\0body`: the object's name. */
export function hashObject(type: ObjectType, body: Uint8Array): Buffer {
  return createHash('sha1').update(objectHeader(type, body.length)).update(body).digest();
}

export function isOid(value: string): boolean {
  return /^[0-9a-f]{40}$/.test(value);
}

/** Git orders tree entries by name bytes, comparing a subtree's name as if it ended in '/'. */
function sortKey(entry: TreeEntry): Buffer {
  return Buffer.from(entry.mode === '40000' ? `${entry.name}/` : entry.name, 'utf8');
}

export function sortTreeEntries(entries: readonly TreeEntry[]): TreeEntry[] {
  const keyed = entries.map((entry) => ({ entry, key: sortKey(entry) }));
  keyed.sort((a, b) => Buffer.compare(a.key, b.key));
  return keyed.map((k) => k.entry);
}

/** Encodes entries (sorted here, so callers may pass any order). */
export function encodeTree(entries: readonly TreeEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of sortTreeEntries(entries)) {
    parts.push(Buffer.from(`${entry.mode} ${entry.name}\0`, 'utf8'), Buffer.from(entry.oid, 'hex'));
  }
  return Buffer.concat(parts);
}

export function parseTree(body: Buffer, oid = '?'): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(0x20, at);
    const nul = body.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 21 > body.length) throw new ArborError('INTERNAL', `Corrupt tree object ${oid}`, { oid });
    const rawMode = body.toString('latin1', at, space);
    const mode = normalizeMode(rawMode, oid);
    entries.push({ mode, name: body.toString('utf8', space + 1, nul), oid: body.toString('hex', nul + 1, nul + 21) });
    at = nul + 21;
  }
  return entries;
}

function normalizeMode(raw: string, oid: string): TreeEntryMode {
  switch (raw) {
    case '100644':
    case '100755':
    case '120000':
    case '40000':
    case '160000':
      return raw;
    case '040000':
      return '40000';
    case '100664': // written by very old git; read as a plain file
      return '100644';
    default:
      throw new ArborError('INTERNAL', `Unknown tree entry mode ${raw} in ${oid}`, { oid, mode: raw });
  }
}

function formatIdentity(who: GitIdentity): string {
  const offset = who.timezoneOffsetMinutes;
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
  return `${who.name} <${who.email}> ${who.timestamp} ${zone}`;
}

export function encodeCommit(commit: CommitFields): Buffer {
  const lines = [`tree ${commit.tree}`, ...commit.parents.map((p) => `parent ${p}`)];
  lines.push(`author ${formatIdentity(commit.author)}`, `committer ${formatIdentity(commit.committer)}`);
  const message = commit.message.endsWith('\n') ? commit.message : `${commit.message}\n`;
  return Buffer.from(`${lines.join('\n')}\n\n${message}`, 'utf8');
}

export interface ParsedCommit {
  readonly tree: string;
  readonly parents: readonly string[];
  readonly message: string;
  /** The committer time in seconds since the epoch. */
  readonly committedAt: number;
}

export function parseCommit(body: Buffer, oid = '?'): ParsedCommit {
  const text = body.toString('utf8');
  const split = text.indexOf('\n\n');
  const head = split < 0 ? text : text.slice(0, split);
  let tree: string | undefined;
  const parents: string[] = [];
  let committedAt = 0;
  for (const line of head.split('\n')) {
    if (line.startsWith('tree ')) tree = line.slice(5);
    else if (line.startsWith('parent ')) parents.push(line.slice(7));
    else if (line.startsWith('committer ')) committedAt = Number(/ (\d+) [+-]\d{4}$/.exec(line)?.[1] ?? 0);
  }
  if (tree === undefined) throw new ArborError('INTERNAL', `Corrupt commit object ${oid}`, { oid });
  return { tree, parents, message: split < 0 ? '' : text.slice(split + 2), committedAt };
}
