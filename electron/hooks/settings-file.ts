/**
 * Claude Code's settings.json on disk: where it is (user or project level), read strictly (a file that is not
 * valid JSON is refused, never overwritten), and written back atomically (temp file + rename) in the file's own
 * indentation and line endings, so an install followed by an uninstall gives the same bytes back.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ArborError } from '../../shared/errors';
import { SettingsShapeError, withArborHook, withoutArborHook, type Json, type JsonObject } from './hook-settings';

type Env = Readonly<Record<string, string | undefined>>;

/** User level: `$CLAUDE_CONFIG_DIR/settings.json`, else `~/.claude/settings.json`; project level: `<dir>/.claude/settings.json`. */
export function settingsPath(where: { readonly project?: string; readonly homeDir: string; readonly env: Env }): string {
  if (where.project !== undefined) return join(where.project, '.claude', 'settings.json');
  const configDir = where.env.CLAUDE_CONFIG_DIR?.trim();
  if (configDir === undefined || configDir === '') return join(where.homeDir, '.claude', 'settings.json');
  const expanded = configDir === '~' || configDir.startsWith('~/') ? join(where.homeDir, configDir.slice(1)) : configDir;
  return join(expanded, 'settings.json');
}

export interface HookChange {
  readonly file: string;
  /** False when the file already said (or still says) exactly this. */
  readonly changed: boolean;
}

export async function installHook(file: string, command: string): Promise<HookChange> {
  const current = await readSettings(file);
  const next = reshape(file, () => withArborHook(current.settings, command));
  if (next === current.settings) return { file, changed: false };
  await writeSettings(file, next, current.style);
  return { file, changed: true };
}

export async function uninstallHook(file: string): Promise<HookChange & { readonly removed: number }> {
  const current = await readSettings(file);
  if (!current.exists) return { file, changed: false, removed: 0 };
  const { settings, removed } = reshape(file, () => withoutArborHook(current.settings));
  if (removed === 0) return { file, changed: false, removed };
  await writeSettings(file, settings, current.style);
  return { file, changed: true, removed };
}

function reshape<T>(file: string, change: () => T): T {
  try {
    return change();
  } catch (error) {
    if (error instanceof SettingsShapeError) throw new ArborError('BAD_REQUEST', `${file}: ${error.message}; Arbor left it unchanged`, { file });
    throw error;
  }
}

interface TextStyle {
  readonly bom: boolean;
  readonly indent: string;
  readonly eol: string;
  readonly finalNewline: boolean;
}

const DEFAULT_STYLE: TextStyle = { bom: false, indent: '  ', eol: '\n', finalNewline: true };

async function readSettings(file: string): Promise<{ settings: JsonObject; style: TextStyle; exists: boolean }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { settings: {}, style: DEFAULT_STYLE, exists: false };
    throw new ArborError('IO', `Cannot read ${file}: ${(error as Error).message}`, { file });
  }
  if (text.trim() === '') return { settings: {}, style: DEFAULT_STYLE, exists: true };
  let parsed: Json;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, '')) as Json;
  } catch (error) {
    throw new ArborError('BAD_REQUEST', `${file} is not valid JSON (${(error as Error).message}); fix it first, Arbor left it unchanged`, { file });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ArborError('BAD_REQUEST', `${file} does not hold a JSON object; Arbor left it unchanged`, { file });
  }
  return { settings: parsed as JsonObject, style: styleOf(text), exists: true };
}

function styleOf(text: string): TextStyle {
  const indent = /^\uFEFF?[{[][^\n]*\n([ \t]+)\S/.exec(text)?.[1] ?? DEFAULT_STYLE.indent;
  return { bom: text.startsWith('\uFEFF'), indent, eol: text.includes('\r\n') ? '\r\n' : '\n', finalNewline: /\n$/.test(text) };
}

/** Temp file beside the target, then rename: Claude Code never reads a half-written file. Symlinks are followed. */
async function writeSettings(file: string, settings: JsonObject, style: TextStyle): Promise<void> {
  const target = await realpath(file).catch(() => file);
  await mkdir(dirname(target), { recursive: true });
  let text = JSON.stringify(settings, null, style.indent);
  if (style.eol !== '\n') text = text.replace(/\n/g, style.eol);
  if (style.finalNewline) text += style.eol;
  if (style.bom) text = `\uFEFF${text}`;
  const mode = await stat(target).then(
    (info) => info.mode & 0o7777,
    () => null,
  );
  const temp = join(dirname(target), `.${basename(target)}.arbor-${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temp, text, { encoding: 'utf8', flag: 'wx', mode: mode ?? 0o644 });
    if (mode !== null) await chmod(temp, mode);
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw new ArborError('IO', `Cannot write ${target}: ${(error as Error).message}`, { file: target });
  }
}
