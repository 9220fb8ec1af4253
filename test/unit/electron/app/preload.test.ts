import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ArborBridge } from '../../../../shared/bridge';
import { IPC_CANCEL_CHANNEL, IPC_EVENT_CHANNEL, METHOD_NAMES } from '../../../../shared/contract';
import type * as FakeElectronModule from '../../../fakes/electron';

type FakeElectron = typeof FakeElectronModule;

describe('electron/preload.ts', () => {
  let electron: FakeElectron;
  let bridge: ArborBridge;
  beforeEach(async () => {
    vi.resetModules();
    electron = await import('../../../fakes/electron');
    await import('../../../../electron/preload');
    bridge = electron.fake.exposed.get('arbor') as ArborBridge;
  });

  it('exposes only window.arbor: invoke per method, cancel, on — never ipcRenderer', () => {
    expect([...electron.fake.exposed.keys()]).toEqual(['arbor']);
    expect(Object.keys(bridge).sort()).toEqual(['cancel', 'invoke', 'on']);
    expect(Object.keys(bridge.invoke).sort()).toEqual([...METHOD_NAMES].sort());
    const reachable = JSON.stringify(Object.keys(bridge)) + Object.values(bridge).map(String).join('');
    expect(reachable).not.toContain('ipcRenderer.on');
  });

  it('invokes each method on its own arbor:<method> channel with the call id', async () => {
    electron.fake.ipcRenderer.invokeResult = { ok: true, result: { sessions: [], total: 0 } };
    await expect(bridge.invoke['sessions.list']({ limit: 3 }, 9)).resolves.toEqual({ ok: true, result: { sessions: [], total: 0 } });
    expect(electron.fake.ipcRenderer.invocations).toEqual([{ channel: 'arbor:sessions.list', args: [{ limit: 3 }, 9] }]);
  });

  it('sends cancels by call id', () => {
    bridge.cancel(9);
    expect(electron.fake.ipcRenderer.sentMessages).toEqual([{ channel: IPC_CANCEL_CHANNEL, args: [9] }]);
  });

  it('dispatches events by name to subscribers until they unsubscribe', () => {
    const got: unknown[] = [];
    const off = bridge.on('index.progress', (payload) => got.push(payload));
    bridge.on('sessions.changed', () => got.push('wrong event'));
    electron.fake.ipcRenderer.emit(IPC_EVENT_CHANNEL, {}, { event: 'index.progress', payload: { done: 1, total: 3 } });
    off();
    electron.fake.ipcRenderer.emit(IPC_EVENT_CHANNEL, {}, { event: 'index.progress', payload: { done: 2, total: 3 } });
    electron.fake.ipcRenderer.emit(IPC_EVENT_CHANNEL, {}, 'garbage');
    expect(got).toEqual([{ done: 1, total: 3 }]);
  });
});
