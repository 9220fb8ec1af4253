import { describe, expect, it } from 'vitest';
import { MAX_CALLS_IN_FLIGHT, createSocketSession } from '../../../../electron/host/socket-session';
import type { ServerMessage } from '../../../../shared/wire';
import { createFakeService } from '../../../fakes/fake-service';

function setup() {
  const service = createFakeService();
  const sent: ServerMessage[] = [];
  const session = createSocketSession(service.api, (m) => sent.push(m));
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
