import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { startWebHost } from '../../host/web-host';
import { integerOption, parseCommandArgs } from '../args';
import { ArborError } from '../../../shared/errors';
import type { CliCommand } from '../command';

/**
 * The renderer bundle built by `npm run build`: beside the CLI bundle (out/cli → out/renderer) when running
 * bundled, else relative to this source file's place in the repository.
 */
export const RENDERER_DIR =
  [resolve(__dirname, '../renderer'), resolve(__dirname, '../../../out/renderer')].find((dir) =>
    existsSync(resolve(dir, 'index.html')),
  ) ?? resolve(__dirname, '../../../out/renderer');

export const serveCommand: CliCommand = {
  name: 'serve',
  summary: 'Open Arbor in a browser: serve the app on 127.0.0.1',
  usage: `Usage: arbor serve [--port N]

Serves Arbor's interface on http://127.0.0.1 (this machine only) and prints the address to open.
Transcripts that agents are writing are imported as they grow, so an open session updates live.
The address carries a token that changes on every start; only pages opened with it can read your
sessions. Runs until Ctrl-C. Needs a built interface (\`npm run build\`).

Options:
  --port N    Listen on port N (default: any free port)
  -h, --help  Show this help`,
  async run(args, context) {
    const { values } = parseCommandArgs(args, { port: { type: 'string' } }, { min: 0, max: 0 });
    const port = integerOption('port', values.port, { min: 0, max: 65_535 }) ?? 0;
    const service = await context.service();
    const host = await startWebHost({ service, rendererDir: context.io.env.ARBOR_RENDERER_DIR ?? RENDERER_DIR, port });
    // Transcripts that grow while the page is open appear in it (sessions.changed → the open graph reloads).
    // A file the tail could not import is said, never skipped in silence (another process keeping the store
    // busy too long, a file that is not a transcript).
    const tail = service.tail({
      signal: context.signal,
      onError: (error, path) => context.io.stderr(`arbor: live import${path === null ? '' : ` of ${path}`}: ${describeError(error)}\n`),
    });
    // `arbor snapshot --hook` hands its captures to this process while it runs.
    await service.listenForHooks();
    context.io.stdout(`Arbor is serving at ${host.url}\n`);
    if (context.io.interactive) context.io.stderr('Press Ctrl-C to stop.\n');
    await new Promise<void>((done) => {
      if (context.signal.aborted) done();
      else context.signal.addEventListener('abort', () => done(), { once: true });
    });
    await tail.stop();
    await host.close();
    return 0;
  },
};

function describeError(error: unknown): string {
  if (error instanceof ArborError) return `${error.message} [${error.code}]`;
  return error instanceof Error ? error.message : String(error);
}
