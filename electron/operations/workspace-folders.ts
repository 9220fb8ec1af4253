/**
 * The workspace's folders as an operation found them, so that every write lands in the folder the check saw
 * and nowhere else, even when a still-running agent swaps a folder for a symlink (or moves it away) during
 * the write phase. Checking paths before the first write is not enough: a path is looked up again by every
 * system call, and what it names can change in between.
 *
 * Two ways, chosen once per process (`confinement()`):
 * - `descriptors` (Linux with /proc): folders are opened one level at a time from the workspace root with
 *   O_DIRECTORY|O_NOFOLLOW through `/proc/self/fd/<parent>/<name>` (Node has no openat; the magic link acts
 *   on the folder the descriptor holds, wherever it is now), each checked to be the folder (device + inode)
 *   seen at check time, and every create, rename, link, unlink, mkdir and rmdir names its file through the
 *   held descriptor. A symlink in the way fails the open; a folder swapped after it was opened is not
 *   written through at all (the descriptor still holds the real one). No window remains for a swap.
 * - `identity-checks` (macOS, Windows, no /proc): every folder from the root down is lstat'ed (no follow)
 *   and compared with what the check saw, immediately before and after each system call. Remaining window:
 *   a folder swapped between the check before and the system call redirects that one call (one file: a
 *   create, rename or unlink; up to RENAMES_AT_ONCE of them while renames run at once). The check after it
 *   stops the operation; the rollback never writes through the swapped folder and reports what it could not
 *   put back.
 *
 * After each batch the runner calls `verifyReachable`: a folder moved away mid-batch (its descriptor still
 * writes into it, now outside the workspace) stops the operation, and the rollback puts it back through the
 * same descriptors. Failures are `WorkspaceChangedDuringWrite` with the workspace-relative path.
 */
import { chmodSync, closeSync, constants, fchmodSync, fstatSync, lstatSync, mkdirSync, openSync, rmdirSync, statSync, type BigIntStats } from 'node:fs';
import { join } from 'node:path';

export interface FolderIdentity {
  readonly dev: bigint;
  readonly ino: bigint;
}

export type Confinement = 'descriptors' | 'identity-checks';

/** The workspace is not what the check saw at `path` (a folder swapped, moved or gone; a file edited): stop. */
export class WorkspaceChangedDuringWrite extends Error {
  constructor(
    readonly path: string,
    message: string,
    /** True when the folder is simply not there (a reader treats the file as absent). */
    readonly missing = false,
    /** True when found by the check after a system call (identity-checks): that call may have gone astray. */
    readonly afterWrite = false,
  ) {
    super(message);
    this.name = 'WorkspaceChangedDuringWrite';
  }
}

/** The root's identity and that of every existing folder above a planned path ('' is the root). */
export interface PlannedFolders {
  readonly root: string;
  readonly identities: Map<string, FolderIdentity>;
  /** Permission bits of each folder in `identities` (not the root), as the check saw them. */
  readonly modes: Map<string, number>;
}

const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const DIRECTORY_FLAGS = constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
/**
 * Folder descriptors an operation keeps open at most (beyond those its current batch uses): held for the whole
 * operation, so a rollback reaches what earlier batches wrote even into a folder swapped or moved since.
 */
export const MAX_HELD = 256;

export const parentOf = (path: string): string => {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
};
export const nameOf = (path: string): string => path.slice(path.lastIndexOf('/') + 1);
const same = (a: FolderIdentity, b: FolderIdentity): boolean => a.dev === b.dev && a.ino === b.ino;
const identityOf = (info: BigIntStats): FolderIdentity => ({ dev: info.dev, ino: info.ino });

let detected: Confinement | undefined;

/** `descriptors` where `/proc/self/fd/<fd>/` names the folder the descriptor holds (checked once), else `identity-checks`. */
export function confinement(): Confinement {
  if (detected !== undefined) return detected;
  detected = 'identity-checks';
  if (process.platform !== 'linux' || O_DIRECTORY === 0 || O_NOFOLLOW === 0) return detected;
  let fd: number | undefined;
  try {
    fd = openSync('/', DIRECTORY_FLAGS);
    if (same(identityOf(statSync(`/proc/self/fd/${fd}/.`, { bigint: true })), identityOf(fstatSync(fd, { bigint: true })))) detected = 'descriptors';
  } catch {
    // no /proc (a container without it, a sandbox): the fallback
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return detected;
}

/**
 * What the check saw: the root (followed, as the plan names it) and each folder above a planned path,
 * shallowest first, one level at a time without following symlinks. A folder that is missing or not a
 * folder is not recorded (the write phase creates it, or finds it changed).
 */
export function planFolders(root: string, paths: Iterable<string>): PlannedFolders {
  const identities = new Map<string, FolderIdentity>([['', identityOf(statSync(root, { bigint: true }))]]);
  const modes = new Map<string, number>();
  const folders = new Set<string>();
  for (const path of paths) for (let dir = parentOf(path); dir !== '' && !folders.has(dir); dir = parentOf(dir)) folders.add(dir);
  const byDepth = [...folders].sort((a, b) => a.split('/').length - b.split('/').length);
  for (const dir of byDepth) {
    if (!identities.has(parentOf(dir))) continue; // its parent is not a folder: neither is it, as the check saw it
    try {
      const info = lstatSync(join(root, dir), { bigint: true });
      if (info.isDirectory()) {
        identities.set(dir, identityOf(info));
        modes.set(dir, Number(info.mode & 0o7777n));
      }
    } catch {
      // missing
    }
  }
  return { root, identities, modes };
}

/** One operation's view of the workspace folders (or one recovery's): every path it reads or writes through comes from here. */
export interface WorkspaceFolders {
  readonly mode: Confinement;
  /** A path naming folder `dir` (workspace-relative) that system calls can use, checked to be the planned folder. */
  folder(dir: string): string;
  /** The same for the entry `path` inside its parent folder. */
  entry(path: string): string;
  /** After a system call through `entry`/`folder` (identity-checks: checks the chain again; descriptors: nothing). */
  confirm(dir: string): void;
  /** Creates folder `dir` (its parent must exist), with permission bits `bits` if given, and records it as the operation's own. */
  makeFolder(dir: string, bits?: number): void;
  /** Removes folder `dir` if empty; false when it is not empty or gone. */
  removeFolderIfEmpty(dir: string): boolean;
  /** True when folder `dir` exists (as a folder) where the check saw it, or was made by the operation. */
  hasFolder(dir: string): boolean;
  /** True when this view removed folder `dir` (and has not made it again). */
  removed(dir: string): boolean;
  /** A new batch: `verifyReachable` looks at the folders used from here on. */
  startBatch(): void;
  /** Every folder used since `startBatch` is still a folder at the same place, reached from the root without symlinks. */
  verifyReachable(): void;
  close(): void;
}

/**
 * `strict`: a folder must be one the check saw or the operation made (apply, and the rollback after it);
 * otherwise (crash recovery, whose identities were not kept) any real folder reached without symlinks will do.
 */
export function openWorkspaceFolders(planned: PlannedFolders, mode: Confinement, strict: boolean): WorkspaceFolders {
  const { root, identities } = planned;
  const fds = new Map<string, number>();
  const used = new Set<string>();
  const removed = new Set<string>();

  let checkingAfter = false;
  const changed = (dir: string, why: string, missing = false): WorkspaceChangedDuringWrite =>
    new WorkspaceChangedDuringWrite(dir === '' ? '.' : dir, `${dir === '' ? 'The workspace folder' : dir} ${why} since the operation checked it`, missing, checkingAfter);

  function expect(dir: string, info: BigIntStats): void {
    if (!info.isDirectory()) throw changed(dir, 'is no longer a folder');
    const known = identities.get(dir);
    if (known === undefined) {
      if (strict) throw changed(dir, 'appeared');
      identities.set(dir, identityOf(info));
    } else if (!same(known, identityOf(info))) {
      throw changed(dir, 'was replaced');
    }
  }

  const errno = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

  // descriptors: one open per folder per view, one level at a time.
  function descriptor(dir: string): number {
    const held = fds.get(dir);
    if (held !== undefined) {
      // Its parents were opened first, so they are held too (or were let go, and are opened again if needed).
      for (let at = dir; !used.has(at); at = parentOf(at)) {
        used.add(at);
        if (at === '') break;
      }
      return held;
    }
    if (fds.size >= MAX_HELD) letGo();
    let fd: number;
    try {
      fd = dir === '' ? openSync(root, constants.O_RDONLY | O_DIRECTORY) : openSync(`/proc/self/fd/${descriptor(parentOf(dir))}/${nameOf(dir)}`, DIRECTORY_FLAGS);
    } catch (error) {
      if (error instanceof WorkspaceChangedDuringWrite) throw error;
      const code = errno(error);
      if (code === 'ENOENT') throw changed(dir, 'is gone', true);
      // ELOOP / ENOTDIR: a symlink or a file where the folder was.
      throw changed(dir, `cannot be opened as a folder (${code ?? String(error)})`);
    }
    try {
      expect(dir, fstatSync(fd, { bigint: true }));
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    fds.set(dir, fd);
    used.add(dir);
    return fd;
  }

  /** Closes the descriptors of folders the current batch has not used (the oldest first), down to half the cap. */
  function letGo(): void {
    for (const [dir, fd] of fds) {
      if (fds.size < MAX_HELD / 2) return;
      if (used.has(dir)) continue;
      closeSync(fd);
      fds.delete(dir);
    }
  }

  // identity-checks: the whole chain, no follow, every time.
  function checkChain(dir: string): void {
    const parts = dir === '' ? [] : dir.split('/');
    let at = '';
    for (let i = -1; i < parts.length; i++) {
      if (i >= 0) at = i === 0 ? parts[0]! : `${at}/${parts[i]!}`;
      let info: BigIntStats;
      try {
        info = at === '' ? statSync(root, { bigint: true }) : lstatSync(join(root, at), { bigint: true });
      } catch (error) {
        if (errno(error) === 'ENOENT' || errno(error) === 'ENOTDIR') throw changed(at, 'is gone', true);
        throw error;
      }
      expect(at, info);
      used.add(at);
    }
  }

  const folder = (dir: string): string => {
    if (mode === 'descriptors') return `/proc/self/fd/${descriptor(dir)}`;
    checkChain(dir);
    return dir === '' ? root : join(root, dir);
  };

  function forget(dir: string): void {
    for (const [held, fd] of fds) {
      if (held === dir || held.startsWith(`${dir}/`)) {
        closeSync(fd);
        fds.delete(held);
      }
    }
    for (const known of [...identities.keys()]) if (known === dir || known.startsWith(`${dir}/`)) identities.delete(known);
    for (const known of [...used]) if (known === dir || known.startsWith(`${dir}/`)) used.delete(known);
  }

  return {
    mode,
    folder,
    entry: (path) => `${folder(parentOf(path))}/${nameOf(path)}`,
    confirm(dir) {
      if (mode !== 'identity-checks') return;
      checkingAfter = true;
      try {
        checkChain(dir);
      } finally {
        checkingAfter = false;
      }
    },
    makeFolder(dir, bits) {
      // A folder the check saw that is gone now was moved or removed by someone else: never made again here.
      if (strict && identities.has(dir)) throw changed(dir, 'is gone', true);
      const parent = parentOf(dir);
      const at = `${folder(parent)}/${nameOf(dir)}`;
      // Not recursive: each level is made (and recorded) on its own, through its checked parent.
      try {
        mkdirSync(at);
      } catch (error) {
        // Someone made something there since the check: theirs, not the operation's.
        if (errno(error) === 'EEXIST') throw changed(dir, 'appeared');
        throw error;
      }
      const info = lstatSync(at, { bigint: true });
      if (!info.isDirectory()) throw changed(dir, 'is not the folder the operation made');
      identities.set(dir, identityOf(info));
      removed.delete(dir);
      if (bits !== undefined) {
        // Explicit, so the umask cannot change what the folder had; on the descriptor where there is one.
        if (mode === 'descriptors') fchmodSync(descriptor(dir), bits);
        else chmodSync(folder(dir), bits);
      }
      this.confirm(parent);
    },
    removeFolderIfEmpty(dir) {
      const parent = parentOf(dir);
      try {
        rmdirSync(`${folder(parent)}/${nameOf(dir)}`);
      } catch (error) {
        if (error instanceof WorkspaceChangedDuringWrite) throw error;
        return false; // not empty, or gone
      }
      forget(dir);
      removed.add(dir);
      this.confirm(parent);
      return true;
    },
    removed: (dir) => removed.has(dir),
    hasFolder(dir) {
      try {
        folder(dir);
        return true;
      } catch (error) {
        if (error instanceof WorkspaceChangedDuringWrite && error.missing) return false;
        throw error;
      }
    },
    startBatch() {
      used.clear();
    },
    verifyReachable() {
      // `used` holds every folder's parents too, so a symlink anywhere above one is found at its own level.
      for (const dir of used) {
        let info: BigIntStats;
        try {
          info = dir === '' ? statSync(root, { bigint: true }) : lstatSync(join(root, dir), { bigint: true });
        } catch {
          throw changed(dir, 'was moved away');
        }
        if (!info.isDirectory() || !same(identityOf(info), identities.get(dir) ?? { dev: -1n, ino: -1n })) throw changed(dir, 'was moved away or replaced');
      }
    },
    close() {
      for (const fd of fds.values()) closeSync(fd);
      fds.clear();
      used.clear();
    },
  };
}
