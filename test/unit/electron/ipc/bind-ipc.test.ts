import { describe, expect, it } from 'vitest';
import { GRAPH_PAGES_UNSENT } from '../../../../electron/host/call-slots';
import { bindIpc, forwardEvents, type IpcMainLike, type IpcSenderEvent } from '../../../../electron/ipc/bind-ipc';
import { IPC_CANCEL_CHANNEL, IPC_EVENT_CHANNEL, METHOD_NAMES, ipcChannel } from '../../../../shared/contract';
import { isEncodedSessionGraph } from '../../../../shared/session-graph-wire';
import { fromTransport } from '../../../../renderer/src/client/arbor-client';
import { FAKE_SESSION, answerGraphPages, createFakeService } from '../../../fakes/fake-service';
import { holdAnswers, settled } from '../../../fakes/held-answers';

const OWN = 'file:///app/out/renderer/index.html';

function fakeIpcMain() {
  const handlers = new Map<string, (event: IpcSenderEvent, ...args: unknown[]) => Promise<unknown>>();
  const listeners = new Map<string, (event: IpcSenderEvent, ...args: unknown[]) => void>();
  const ipcMain: IpcMainLike = {
    handle: (channel, fn) => void handlers.set(channel, fn),
    on: (channel, fn) => void listeners.set(channel, fn),
    removeHandler: (channel) => void handlers.delete(channel),
    removeListener: (channel) => void listeners.delete(channel),
  };
  return { ipcMain, handlers, listeners };
}

const from = (url: string | null, senderId = 1): IpcSenderEvent => ({ sender: { id: senderId }, senderFrame: url === null ? null : { url } });

function setup() {
  const service = createFakeService();
  const ipc = fakeIpcMain();
  const dispose = bindIpc({ ipcMain: ipc.ipcMain, api: service.api, senderAllowed: (url) => url === OWN });
  const call = (method: string, event: IpcSenderEvent, ...args: unknown[]): Promise<unknown> => {
    const handler = ipc.handlers.get(`arbor:${method}`);
    if (handler === undefined) throw new Error(`no handler for ${method}`);
    return handler(event, ...args);
  };
  return { service, ipc, dispose, call };
}

describe('bindIpc', () => {
  it('registers one arbor:<method> channel per contract method, plus cancel', () => {
    const { ipc } = setup();
    expect([...ipc.handlers.keys()].sort()).toEqual(METHOD_NAMES.map(ipcChannel).sort());
    expect(ipc.listeners.has(IPC_CANCEL_CHANNEL)).toBe(true);
  });

  it('returns the service result in an envelope', async () => {
    const { call, service } = setup();
    expect(await call('sessions.list', from(OWN), { limit: 2 }, 1)).toEqual({ ok: true, result: { sessions: [FAKE_SESSION], total: 1 } });
    expect(service.calls).toEqual([{ method: 'sessions.list', request: { limit: 2 } }]);
    expect(await call('nodes.get', from(OWN), { nodeId: 'n' }, 2)).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('sends a session graph in its compact form, which decodes to what the service returned', async () => {
    const { call, service } = setup();
    const expected = await service.api['sessions.graph']({ sessionId: FAKE_SESSION.id });
    const envelope = (await call('sessions.graph', from(OWN), { sessionId: FAKE_SESSION.id }, 1)) as { ok: boolean; result: unknown };
    expect(envelope.ok).toBe(true);
    expect(isEncodedSessionGraph(envelope.result)).toBe(true);
    expect(fromTransport('sessions.graph', envelope.result)).toEqual(expected);
  });

  it('rejects bad payloads with BAD_REQUEST before the service sees them', async () => {
    const { call, service } = setup();
    for (const payload of [null, 'x', [], { limit: 0 }, { limit: 1.5 }, { sneaky: true }]) {
      expect(await call('sessions.list', from(OWN), payload, 1), JSON.stringify(payload)).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    }
    expect(await call('sessions.graph', from(OWN), { sessionId: 42 }, 1)).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(service.calls).toEqual([]);
    // An omitted request is read as {} (JSON drops `params: undefined`); it is still validated.
    expect(await call('sessions.graph', from(OWN), undefined, 1)).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(await call('app.info', from(OWN), undefined, 1)).toMatchObject({ ok: true });
  });

  it('rejects calls from any frame but our renderer', async () => {
    const { call, service } = setup();
    for (const url of ['https://evil.example/', 'file:///etc/passwd', null]) {
      expect(await call('app.info', from(url), {}, 1)).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED' } });
    }
    expect(service.calls).toEqual([]);
  });

  it('cancels a running call by (sender, call id)', async () => {
    const { call, ipc, service } = setup();
    const running = call('import.run', from(OWN, 7), {}, 42);
    await service.importStarted;
    const cancel = ipc.listeners.get(IPC_CANCEL_CHANNEL);
    cancel?.(from(OWN, 8), 42); // another window's call 42: not ours
    cancel?.(from('https://evil.example/', 7), 42);
    expect(service.importAborted).toBe(false);
    cancel?.(from(OWN, 7), 42);
    expect(await running).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    expect(service.importAborted).toBe(true);
  });

  it("reads a window's next graph page only once an earlier one has been handed back, and another window's at once", async () => {
    const { call, service } = setup();
    const answers = holdAnswers();
    const read = answerGraphPages(service, (page) => answers.hold({ version: 'v1', page, pages: 10, chunk: '' }));
    const pages = Array.from({ length: 6 }, (_, page) => call('sessions.graphPage', from(OWN, 3), { sessionId: 'S1', page }, page));
    await settled();
    // Regression: every page a renderer asked at once was read (and held) together.
    expect(read).toEqual(Array.from({ length: GRAPH_PAGES_UNSENT }, (_, page) => page));
    const other = call('sessions.graphPage', from(OWN, 4), { sessionId: 'S1', page: 0 }, 0);
    await settled();
    expect(read).toHaveLength(GRAPH_PAGES_UNSENT + 1);
    await answers.letNext();
    expect(read).toHaveLength(GRAPH_PAGES_UNSENT + 2);
    await answers.letAll();
    expect(await Promise.all(pages)).toEqual(Array.from({ length: 6 }, (_, page) => ({ ok: true, result: { version: 'v1', page, pages: 10, chunk: '' } })));
    expect(await other).toMatchObject({ ok: true });
  });

  it('removes every channel and aborts running calls when disposed', async () => {
    const { call, ipc, service, dispose } = setup();
    const running = call('import.run', from(OWN), {}, 1);
    await service.importStarted;
    dispose();
    expect(ipc.handlers.size).toBe(0);
    expect(ipc.listeners.size).toBe(0);
    expect(await running).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
  });
});

describe('forwardEvents', () => {
  it('sends each service event on the event channel, until disposed', () => {
    const service = createFakeService();
    const sent: unknown[] = [];
    const stop = forwardEvents(service.events, (channel, message) => sent.push([channel, message]));
    service.emit('index.progress', { done: 1, total: 2 });
    stop();
    service.emit('index.progress', { done: 2, total: 2 });
    expect(sent).toEqual([[IPC_EVENT_CHANNEL, { event: 'index.progress', payload: { done: 1, total: 2 } }]]);
    expect(service.listenerCount()).toBe(0);
  });
});
