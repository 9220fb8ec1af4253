/**
 * How a hook runs this same CLI: the Node binary running now and the `arbor` launcher (bin/arbor.cjs), both
 * absolute, so the hook works whatever PATH Claude Code's shell has.
 */
import { existsSync } from 'node:fs';
import { basename, resolve } from 'node:path';

/** bin/arbor.cjs is two folders up both from the sources (electron/hooks/) and from the bundle (out/cli/). */
export function arborLauncher(argv: readonly string[] = process.argv, execPath: string = process.execPath): string[] {
  const beside = resolve(__dirname, '../../bin/arbor.cjs');
  if (existsSync(beside)) return [execPath, beside];
  const script = argv[1];
  if (script !== undefined && /^arbor(\.c?js)?$/.test(basename(script))) return [execPath, resolve(script)];
  return ['arbor'];
}
