/** Runs the CLI in-process (runCli) with captured output, against the real service, for the CLI tests. */
import { PassThrough } from 'node:stream';
import type { CliIO } from '../../../electron/cli/command';
import { runCli, type CliOptions } from '../../../electron/cli/main';
import { createArborService } from '../../../electron/service/arbor-service';

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCliCaptured(
  args: string[],
  where: { readonly cwd: string; readonly homeDir: string; readonly env?: Record<string, string> },
  options: Partial<CliOptions> = {},
): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    stdin: new PassThrough(),
    cwd: where.cwd,
    env: where.env ?? {},
    interactive: false,
  };
  const code = await runCli(args, io, { createService: createArborService, homeDir: where.homeDir, platform: 'linux', ...options });
  return { code, stdout, stderr };
}
