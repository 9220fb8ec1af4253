/** Reading a whole workspace (every file but `.git`, ignored ones included) to compare states byte for byte. */
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

export interface DiskFile {
  /** Content, or the link target for a symlink. */
  readonly bytes: Buffer;
  readonly mode: 'file' | 'executable' | 'symlink';
}

export function readAllFiles(root: string): Map<string, DiskFile> {
  const files = new Map<string, DiskFile>();
  const stack = [''];
  while (stack.length > 0) {
    const folder = stack.pop()!;
    for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
      const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (path === '.git') continue;
      const full = join(root, path);
      if (entry.isDirectory()) stack.push(path);
      else if (entry.isSymbolicLink()) files.set(path, { bytes: Buffer.from(readlinkSync(full)), mode: 'symlink' });
      else files.set(path, { bytes: readFileSync(full), mode: (lstatSync(full).mode & 0o111) !== 0 ? 'executable' : 'file' });
    }
  }
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** A comparable form: path → mode and content hash-free (the bytes as base64), for toEqual. */
export function describeFiles(files: ReadonlyMap<string, DiskFile>): Record<string, string> {
  return Object.fromEntries([...files].map(([path, file]) => [path, `${file.mode}:${file.bytes.toString('base64')}`]));
}
