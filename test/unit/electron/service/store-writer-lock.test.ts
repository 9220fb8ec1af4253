import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStoreWriterLock, describeWait, type ProcessProbe, WRITER_LOCK_FILE, type WriterLockHolder } from '../../../../electron/service/store-writer-lock';

let dataDir: string;
const lockFile = (): string => join(dataDir, 'locks', WRITER_LOCK_FILE);

/** Processes 100 (started at "5") and 200 (started at "7") are alive; any other pid is gone. */
const probe: ProcessProbe = {
  isAlive: (pid) => pid === 100 || pid === 200,
  startedOf: (pid) => (pid === 100 ? '5' : pid === 200 ? '7' : null),
};

function lockAs(pid: number, name: string, waits: WriterLockHolder[] = []) {
  return createStoreWriterLock({ dataDir, name, pid, probe, retryMs: 5, onWait: (holder) => waits.push(holder) });
}

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'arbor-writer-lock-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the store writer lock', () => {
  it('makes a second writer wait for the first, telling who it waits for once', async () => {
    const waits: WriterLockHolder[] = [];
    const serve = lockAs(100, 'arbor serve');
    const cli = lockAs(200, 'arbor import', waits);
    const order: string[] = [];
    let release!: () => void;
    const first = serve.withTurn(new AbortController().signal, async () => {
      order.push('serve starts');
      await new Promise<void>((done) => (release = done));
      order.push('serve ends');
    });
    await expect.poll(() => existsSync(lockFile())).toBe(true);
    expect(cli.heldElsewhere()).toBe(true);
    expect(serve.heldElsewhere()).toBe(false);
    const second = cli.withTurn(new AbortController().signal, async () => void order.push('import runs'));
    await expect.poll(() => waits.length).toBe(1);
    await new Promise((done) => setTimeout(done, 30));
    expect(order).toEqual(['serve starts']);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['serve starts', 'serve ends', 'import runs']);
    expect(waits).toEqual([{ pid: 100, started: '5', name: 'arbor serve', doing: 'import' }]);
    expect(describeWait(waits[0] as WriterLockHolder)).toBe('waiting for the import in arbor serve (process 100)…');
    // A workspace write (fork, rewind, …) holds the turn too, and says so to whoever waits for it.
    expect(describeWait({ pid: 7, started: null, name: 'the Arbor app', doing: 'workspace write' })).toBe('waiting for the workspace write in the Arbor app (process 7)…');
    expect(existsSync(lockFile())).toBe(false);
  });

  it('breaks a lock whose holder died, and one whose pid now belongs to another process', async () => {
    mkdirSync(join(dataDir, 'locks'));
    for (const holder of [{ pid: 999, started: '1', name: 'arbor import' }, { pid: 100, started: '4', name: 'arbor import' }]) {
      writeFileSync(lockFile(), JSON.stringify(holder));
      const waits: WriterLockHolder[] = [];
      const lock = lockAs(200, 'arbor import', waits);
      expect(lock.heldElsewhere()).toBe(false);
      expect(await lock.withTurn(new AbortController().signal, async () => 'ran')).toBe('ran');
      expect(waits).toEqual([]);
    }
  });

  it('stops waiting with CANCELLED when its signal fires', async () => {
    mkdirSync(join(dataDir, 'locks'));
    writeFileSync(lockFile(), JSON.stringify({ pid: 100, started: '5', name: 'the Arbor app' }));
    const controller = new AbortController();
    const waiting = lockAs(200, 'arbor import').withTurn(controller.signal, async () => 'ran');
    setTimeout(() => controller.abort(), 20);
    await expect(waiting).rejects.toMatchObject({ code: 'CANCELLED' });
    // The holder's lock is left alone.
    expect(existsSync(lockFile())).toBe(true);
  });

  it('releases the turn when the work fails', async () => {
    const lock = lockAs(100, 'arbor import');
    await expect(lock.withTurn(new AbortController().signal, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(existsSync(lockFile())).toBe(false);
  });
});
