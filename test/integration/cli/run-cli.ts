/** Runs the CLI in-process (runCli) with captured output, against the real service, for the CLI tests. */
import { PassThrough } from 'node:stream';
import type { CliIO } from '../../../electron/cli/command';
import { runCli, type CliOptions } from '../../../electron/cli/main';
import { createArborService } from '../../../electron/service/arbor-service';

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
