import { describe, expect, it } from 'vitest';
import { GRAPH_PAGES_UNSENT } from '../../../../electron/host/call-slots';
import { MAX_CALLS_IN_FLIGHT, createSocketSession, type SocketSession } from '../../../../electron/host/socket-session';
import type { ServerMessage } from '../../../../shared/wire';
import { answerGraphPages, createFakeService } from '../../../fakes/fake-service';
import { holdAnswers, settled } from '../../../fakes/held-answers';

/** How long a socket session's sends and the pages they free take to run on (a few promise turns and a timer). */
const SETTLE_MS = 5;

function setup() {
  const service = createFakeService();
  const sent: ServerMessage[] = [];
  const session = createSocketSession(service.api, (m) => void sent.push(m));
  return { service, sent, session };
}

describe('createSocketSession', () => {
  it('answers a duplicate call id with BAD_REQUEST instead of mixing two calls', async () => {
    const { session, sent, service } = setup();
    session.receive(JSON.stringify({ t: 'req', id: 1, method: 'import.run', params: {} }));
    await service.importStarted;
    expect(session.receive(JSON.stringify({ t: 'req', id: 1, method: 'app.info', params: {} }))).toBeUndefined();
    expect(sent).toEqual([{ t: 'res', id: 1, ok: false, error: { code: 'BAD_REQUEST', message: 'call id 1 is already in use' } }]);
    session.dispose();
  });

  it('ignores a cancel for an unknown call and refuses unknown message types', () => {
    const { session } = setup();
    expect(session.receive(JSON.stringify({ t: 'cancel', id: 99 }))).toBeUndefined();
    expect(session.receive(JSON.stringify({ t: 'hello', id: 1 }))).toEqual({ code: 1007, reason: 'unknown message type' });
    expect(session.receive('[1,2]')).toMatchObject({ code: 1007 });
    expect(session.receive(JSON.stringify({ t: 'req', id: -1, method: 'app.info' }))).toMatchObject({ code: 1007 });
    expect(session.receive(JSON.stringify({ t: 'req', id: 1.5, method: 'app.info' }))).toMatchObject({ code: 1007 });
  });

  it('limits the calls one client keeps running', async () => {
    const { session } = setup();
    for (let id = 0; id < MAX_CALLS_IN_FLIGHT; id++) expect(session.receive(JSON.stringify({ t: 'req', id, method: 'import.run', params: {} }))).toBeUndefined();
    expect(session.callsInFlight).toBe(MAX_CALLS_IN_FLIGHT);
    expect(session.receive(JSON.stringify({ t: 'req', id: 1000, method: 'app.info', params: {} }))).toMatchObject({ code: 1008 });
    session.dispose();
    expect(session.callsInFlight).toBe(0);
  });

  it('sends nothing after the socket is gone', async () => {
    const { session, sent } = setup();
    session.receive(JSON.stringify({ t: 'req', id: 1, method: 'app.info', params: {} }));
    session.dispose();
    await new Promise((done) => setTimeout(done, 10));
    expect(sent).toEqual([]);
  });
});

describe('graph pages on one socket', () => {
  /** A service whose pages answer at once, counting the pages it read; the socket lets a message go when told. */
  function pagedSetup() {
    const service = createFakeService();
    const read = answerGraphPages(service, (page) => ({ version: 'v1', page, pages: 10, chunk: '' }));
    const sent: ServerMessage[] = [];
    const socket = holdAnswers({ settle: SETTLE_MS });
    const session = createSocketSession(service.api, (message) => {
      sent.push(message);
      return socket.hold(undefined);
    });
    return { session, read, sent, socket };
  }
  const ask = (session: SocketSession, id: number, page = id): void => void session.receive(JSON.stringify({ t: 'req', id, method: 'sessions.graphPage', params: { sessionId: 'S1', page } }));

  it('reads the next page of a client that asked every page at once only when an earlier page has left', async () => {
    const { session, read, sent, socket } = pagedSetup();
    for (let page = 0; page < 10; page++) ask(session, page);
    await settled(SETTLE_MS);
    // Regression: every page was read and queued on the socket before the client had taken the first.
    expect(read).toEqual([0, 1].slice(0, GRAPH_PAGES_UNSENT));
    expect(session.callsInFlight).toBe(10 - GRAPH_PAGES_UNSENT);
    await socket.letNext();
    expect(read).toHaveLength(GRAPH_PAGES_UNSENT + 1);
    await socket.letAll();
    expect(read).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(sent.map((message) => (message as { id: number }).id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    session.dispose();
  });

  it('answers a page cancelled while it waits CANCELLED without reading it, and other calls do not wait', async () => {
    const { session, read, sent, socket } = pagedSetup();
    for (let page = 0; page < GRAPH_PAGES_UNSENT + 1; page++) ask(session, page);
    session.receive(JSON.stringify({ t: 'req', id: 50, method: 'app.info', params: {} }));
    await settled(SETTLE_MS);
    expect(sent.map((message) => (message as { id: number }).id).sort((a, b) => a - b)).toEqual([...Array.from({ length: GRAPH_PAGES_UNSENT }, (_, k) => k), 50]);
    session.receive(JSON.stringify({ t: 'cancel', id: GRAPH_PAGES_UNSENT }));
    await settled(SETTLE_MS);
    expect(sent.at(-1)).toEqual({ t: 'res', id: GRAPH_PAGES_UNSENT, ok: false, error: expect.objectContaining({ code: 'CANCELLED' }) });
    expect(read).toHaveLength(GRAPH_PAGES_UNSENT);
    socket.release();
    session.dispose();
  });
});
