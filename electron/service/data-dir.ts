/**
 * Where Arbor keeps its store. The CLI, `arbor serve` and the desktop app must agree, so the default is the
 * folder Electron's app.getPath('userData') gives for productName "Arbor" — computed here without Electron.
 */
import { posix, resolve, win32 } from 'node:path';

export const PRODUCT_NAME = 'Arbor';
export const DATA_DIR_ENV = 'ARBOR_DATA_DIR';

type Env = Readonly<Record<string, string | undefined>>;

/** Electron's userData for productName "Arbor" on each platform (appData + name). */
export function defaultDataDir(platform: NodeJS.Platform, env: Env, homeDir: string): string {
  switch (platform) {
    case 'darwin':
      return posix.join(homeDir, 'Library', 'Application Support', PRODUCT_NAME);
    case 'win32': {
      const appData = nonEmpty(env.APPDATA) ?? win32.join(homeDir, 'AppData', 'Roaming');
      return win32.join(appData, PRODUCT_NAME);
    }
    default: {
      // Electron follows the XDG spec on Linux and the BSDs, and only for an absolute XDG_CONFIG_HOME.
      const xdg = nonEmpty(env.XDG_CONFIG_HOME);
      const config = xdg !== undefined && xdg.startsWith('/') ? xdg : posix.join(homeDir, '.config');
      return posix.join(config, PRODUCT_NAME);
    }
  }
}

export interface DataDirInputs {
  /** The value of `--data-dir`, when given. */
  readonly flag?: string | undefined;
  readonly env: Env;
  readonly platform: NodeJS.Platform;
  readonly homeDir: string;
  /** Relative flag/env values resolve against this folder. */
  readonly cwd: string;
}

/** `--data-dir` wins over ARBOR_DATA_DIR, which wins over the desktop app's own folder. */
export function resolveDataDir(inputs: DataDirInputs): string {
  const chosen = nonEmpty(inputs.flag) ?? nonEmpty(inputs.env[DATA_DIR_ENV]);
  if (chosen !== undefined) return resolve(inputs.cwd, chosen);
  return defaultDataDir(inputs.platform, inputs.env, inputs.homeDir);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
