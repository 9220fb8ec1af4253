import { resolve } from 'node:path';
import type { SessionSummary } from '../../../shared/model';
import type { ArborService } from '../../service/service-types';
import { parseCommandArgs } from '../args';
import type { CliCommand, CliContext } from '../command';
import { oneLine, plural } from '../format';

export const watchCommand: CliCommand = {
  name: 'watch',
  summary: 'Import transcripts live as agents write them, printing each session change',
  usage: `Usage: arbor watch [PATH...] [--json]

Imports what changed since the last import, then follows the transcripts as they grow: each new line is
imported within a second and a line is printed per session that changed. Watches the default locations
(e.g. ~/.claude/projects) and the transcripts already imported, or only the folders PATH. Runs until Ctrl-C.

Options:
  --json      Print one JSON object per change: {"sessionId","title","nodeCount","added","updatedAt"}
  -h, --help  Show this help`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } }, { min: 0, max: Infinity });
    const { io, signal } = context;
    const folders = positionals.map((path) => resolve(io.cwd, path));
    const service = await context.service();
    // Catch up first, so what is printed below is what changed while watching.
    const caughtUp = await service.api['import.run'](folders.length > 0 ? { paths: folders } : {}, { signal });
    // Node counts as they are now, so each change says how many nodes it added.
    const { sessions } = await service.api['sessions.list']({ limit: 100_000 });
    const counts = new Map(sessions.map((session) => [session.id, session.nodeCount]));
    const stopPrinting = printChanges(service, context, counts, values.json === true);
    const tail = service.tail({
      signal,
      ...(folders.length > 0 ? { folders } : {}),
      onError: (error, path) => io.stderr(`arbor watch: ${path ?? 'scan'}: ${error instanceof Error ? error.message : String(error)}\n`),
    });
    // `arbor snapshot --hook` hands its captures to this process while it runs.
    const hooks = await service.listenForHooks();
    try {
      await tail.ready;
      const taking = hooks.path === null ? '' : ' Hook snapshots (`arbor snapshot --hook`) are taken here.';
      io.stderr(`Watching for transcript changes (${plural(caughtUp.sessions.length, 'session')} caught up).${taking} Press Ctrl-C to stop.\n`);
      await new Promise<void>((done) => {
        if (signal.aborted) done();
        else signal.addEventListener('abort', () => done(), { once: true });
      });
    } finally {
      stopPrinting();
      await hooks.stop();
      await tail.stop();
    }
    return 0;
  },
};

/** One line per changed session, in the order the changes arrive (a slow lookup never reorders them). */
function printChanges(service: ArborService, context: CliContext, counts: Map<string, number>, json: boolean): () => void {
  let queue = Promise.resolve();
  const unsubscribe = service.events.on('sessions.changed', ({ sessionIds }) => {
    queue = queue.then(async () => {
      for (const sessionId of sessionIds) {
        const session = await findSession(service, sessionId).catch(() => null);
        if (session === null) continue;
        const before = counts.get(sessionId);
        counts.set(sessionId, session.nodeCount);
        const added = before === undefined ? null : session.nodeCount - before;
        context.io.stdout(json ? `${JSON.stringify({ sessionId, title: session.title, nodeCount: session.nodeCount, added, updatedAt: session.updatedAt })}\n` : describe(session, added));
      }
    });
  });
  return unsubscribe;
}

function describe(session: SessionSummary, added: number | null): string {
  const change = added === null ? 'changed' : added > 0 ? `+${plural(added, 'node')}` : 'updated';
  return `${session.updatedAt ?? '-'}  ${session.id}  ${change} (${plural(session.nodeCount, 'node')})  ${oneLine(session.title, 60)}\n`;
}

async function findSession(service: ArborService, sessionId: string): Promise<SessionSummary | null> {
  const { sessions } = await service.api['sessions.list']({ query: sessionId, limit: 20 });
  return sessions.find((session) => session.id === sessionId) ?? null;
}
