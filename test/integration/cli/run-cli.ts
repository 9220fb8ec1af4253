/** Runs the CLI in-process (runCli) with captured output, against the real service, for the CLI tests. */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { CliIO } from '../../../electron/cli/command';
import { runCli, type CliOptions } from '../../../electron/cli/main';
import { createArborService } from '../../../electron/service/arbor-service';
import type { SessionGraph } from '../../../shared/model';

export interface Run {
  code: number;
  stdout: string;
  /** stdout exactly as written (for byte-exact checks). */
  stdoutBytes: Buffer;
  stderr: string;
}

export async function runCliCaptured(
  args: string[],
  where: { readonly cwd: string; readonly homeDir: string; readonly env?: Record<string, string> },
  options: Partial<CliOptions> = {},
): Promise<Run> {
  const stdoutChunks: Buffer[] = [];
  let stderr = '';
  const io: CliIO = {
    stdout: (output) => void stdoutChunks.push(Buffer.from(output)),
    stderr: (text) => void (stderr += text),
    stdin: new PassThrough(),
    cwd: where.cwd,
    env: where.env ?? {},
    interactive: false,
  };
  const code = await runCli(args, io, { createService: createArborService, homeDir: where.homeDir, platform: 'linux', ...options });
  const stdoutBytes = Buffer.concat(stdoutChunks);
  return { code, stdout: stdoutBytes.toString('utf8'), stdoutBytes, stderr };
}

/** A temp folder with a home, a data folder and the demo session imported, and `arbor` bound to them. */
export interface CliDemo {
  readonly root: string;
  readonly home: string;
  readonly dataDir: string;
  readonly graph: SessionGraph;
  cli(args: string[], env?: Record<string, string>): Promise<Run>;
  remove(): void;
}

export async function openCliDemo(prefix: string): Promise<CliDemo> {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const home = join(root, 'home');
  mkdirSync(home);
  const dataDir = join(root, 'data');
  const cli = (args: string[], env: Record<string, string> = {}): Promise<Run> =>
    runCliCaptured(['--data-dir', dataDir, ...args], { cwd: root, homeDir: home, env });
  const demo = await cli(['demo', join(root, 'demo'), '--json']);
  if (demo.code !== 0) throw new Error(`arbor demo failed: ${demo.stderr}`);
  const { sessionId } = JSON.parse(demo.stdout) as { sessionId: string };
  const graph = JSON.parse((await cli(['show', sessionId, '--json'])).stdout) as SessionGraph;
  return { root, home, dataDir, graph, cli, remove: () => rmSync(root, { recursive: true, force: true }) };
}
