/**
 * A lean entry for `arbor [--data-dir DIR] snapshot --hook`: Claude Code runs it after every file-changing tool
 * call and waits for it, so it loads only the hook's own code (reading stdin, handing the capture to a running
 * Arbor) instead of the whole CLI. The store and the capture code, the whole CLI bundle beside this one
 * (arbor.js), load only when no running Arbor takes the capture. bin/arbor.cjs picks this entry for exactly
 * the command line `arbor hook install` writes.
 */
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ArborService } from '../service/service-types';
import { resolveDataDir } from '../service/data-dir';
import type * as WholeCliModule from './main';
import { snapshotCommand } from './commands/snapshot';
import { processIO } from './process-io';

type WholeCli = Pick<typeof WholeCliModule, 'main' | 'openService'>;

/** The whole CLI, the bundle beside this one (required at run time by path: never bundled into this one). */
function wholeCli(): WholeCli {
  return createRequire(__filename)(join(__dirname, 'arbor.js')) as WholeCli;
}

/** The data folder when `argv` is exactly `[--data-dir DIR] snapshot --hook`, else undefined. */
function hookDataDirFlag(argv: readonly string[]): { readonly flag: string | undefined } | undefined {
  if (argv.length === 2 && argv[0] === 'snapshot' && argv[1] === '--hook') return { flag: undefined };
  if (argv.length === 4 && argv[0] === '--data-dir' && argv[2] === 'snapshot' && argv[3] === '--hook') return { flag: argv[1] };
  return undefined;
}

export async function main(argv: readonly string[]): Promise<number> {
  const shape = hookDataDirFlag(argv);
  if (shape === undefined) return wholeCli().main(argv);
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const io = processIO();
  const home = homedir();
  const dataDir = resolveDataDir({ flag: shape.flag, env: io.env, platform: process.platform, homeDir: home, cwd: io.cwd });
  let service: Promise<ArborService> | undefined;
  try {
    return await snapshotCommand.run(['--hook'], {
      io,
      signal: controller.signal,
      service: () => (service ??= wholeCli().openService(dataDir)),
      dataDir,
      homeDir: home,
    });
  } finally {
    if (service !== undefined) await (await service.catch(() => undefined))?.close();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
