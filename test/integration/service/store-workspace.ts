/**
 * A session store and a workspace over it in a temp dir, fresh for each test of the file that asks for it
 * (opened before each test, closed and removed after): the setup the service's graph tests share.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import { createEventHub } from '../../../electron/service/event-hub';
import { createWorkspaceContext, type OwnedWorkspaceContext } from '../../../electron/service/workspace-context';

export interface StoreWorkspace {
  readonly dir: string;
  readonly store: SessionStore;
  readonly workspace: OwnedWorkspaceContext;
}

/** Registers the hooks; the returned object reads the current test's store and workspace. */
export function useStoreWorkspace(prefix: string): StoreWorkspace {
  let current: (StoreWorkspace & { readonly lifetime: AbortController }) | null = null;
  beforeEach(() => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    const store = openSessionStore(join(dir, 'arbor.sqlite'));
    const lifetime = new AbortController();
    const workspace = createWorkspaceContext(store, {
      dataDir: join(dir, 'data'),
      homeDir: join(dir, 'home'),
      env: {},
      now: () => new Date('2026-03-01T12:00:00Z'),
      lifetime: lifetime.signal,
      events: createEventHub(),
    });
    current = { dir, store, lifetime, workspace };
  });
  afterEach(async () => {
    if (!current) return;
    const { dir, store, lifetime, workspace } = current;
    current = null;
    lifetime.abort();
    await workspace.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const now = (): StoreWorkspace => {
    if (!current) throw new Error('useStoreWorkspace: read outside a test');
    return current;
  };
  return {
    get dir() {
      return now().dir;
    },
    get store() {
      return now().store;
    },
    get workspace() {
      return now().workspace;
    },
  };
}
