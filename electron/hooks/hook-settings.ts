/**
 * Arbor's Claude Code `PostToolUse` hook in settings.json, as data: adding it and removing exactly it
 * (plus the containers left empty) are pure functions over the parsed settings, so a user's other hooks and
 * keys pass through untouched, in their order. settings-file.ts reads and writes the file around them.
 */

export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };
export type JsonObject = { readonly [key: string]: Json };

/** The tools that can change files in the workspace (Bash included: a shell command may write anything). */
export const HOOK_MATCHER = 'Write|Edit|MultiEdit|NotebookEdit|Bash';
/** Seconds Claude Code gives the hook; the hook itself stops well before (snapshot --hook's time limit). */
export const HOOK_TIMEOUT_SECONDS = 30;
const HOOK_ARGUMENTS = ' snapshot --hook';

/** Arbor's hook entries are recognised by their command: `<… arbor …> snapshot --hook`. */
export function isArborHookCommand(command: unknown): boolean {
  return typeof command === 'string' && command.endsWith(HOOK_ARGUMENTS) && /arbor/i.test(command.slice(0, -HOOK_ARGUMENTS.length));
}

/** The shell command the hook runs: this CLI (`node <bin>`), quoted for a POSIX shell. */
export function hookCommandLine(launcher: readonly string[], dataDir: string): string {
  return [...launcher, '--data-dir', dataDir].map(shellQuote).join(' ') + HOOK_ARGUMENTS;
}

export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export class SettingsShapeError extends Error {}

const isObject = (value: Json | undefined): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Settings with Arbor's hook group added at the end of `hooks.PostToolUse` (replacing an earlier Arbor entry,
 * so installing twice changes nothing). Throws SettingsShapeError when `hooks` or `PostToolUse` is not what
 * Claude Code expects: Arbor never rewrites what it does not understand.
 */
export function withArborHook(settings: JsonObject, command: string): JsonObject {
  const hooks = settings.hooks ?? {};
  if (!isObject(hooks)) throw new SettingsShapeError('"hooks" is not an object');
  const groups = hooks.PostToolUse ?? [];
  if (!Array.isArray(groups)) throw new SettingsShapeError('"hooks.PostToolUse" is not a list');
  const entry: JsonObject = { type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS };
  const existing = groups.findIndex((group: Json) => isArborGroup(group));
  if (existing !== -1 && sameJson(groups[existing], arborGroup(entry))) return settings;
  const kept = withoutArborHooks(groups as readonly Json[]);
  return { ...settings, hooks: { ...hooks, PostToolUse: [...kept, arborGroup(entry)] } };
}

/** Settings without Arbor's hook entries; `hooks.PostToolUse` and `hooks` go when nothing else is left in them. */
export function withoutArborHook(settings: JsonObject): { readonly settings: JsonObject; readonly removed: number } {
  const hooks = settings.hooks;
  if (!isObject(hooks) || !Array.isArray(hooks.PostToolUse)) return { settings, removed: 0 };
  const groups = hooks.PostToolUse as readonly Json[];
  const removed = countArborEntries(groups);
  if (removed === 0) return { settings, removed };
  const kept = withoutArborHooks(groups);
  const { PostToolUse: _dropped, ...otherEvents } = hooks;
  const nextHooks: JsonObject = kept.length > 0 ? { ...hooks, PostToolUse: kept } : otherEvents;
  const { hooks: _old, ...rest } = settings;
  // Keep `hooks` where it was in the key order when it stays.
  const next: JsonObject = Object.keys(nextHooks).length > 0 ? { ...settings, hooks: nextHooks } : rest;
  return { settings: next, removed };
}

function arborGroup(entry: JsonObject): JsonObject {
  return { matcher: HOOK_MATCHER, hooks: [entry] };
}

function isArborGroup(group: Json): boolean {
  return isObject(group) && Array.isArray(group.hooks) && group.hooks.length > 0 && (group.hooks as readonly Json[]).every(isArborEntry);
}

function isArborEntry(entry: Json): boolean {
  return isObject(entry) && isArborHookCommand(entry.command);
}

function countArborEntries(groups: readonly Json[]): number {
  let count = 0;
  for (const group of groups) if (isObject(group) && Array.isArray(group.hooks)) count += (group.hooks as readonly Json[]).filter(isArborEntry).length;
  return count;
}

/** Removes Arbor's entries from every group; a group left with no hooks goes too (groups Arbor never touched stay as they are). */
function withoutArborHooks(groups: readonly Json[]): Json[] {
  const kept: Json[] = [];
  for (const group of groups) {
    if (!isObject(group) || !Array.isArray(group.hooks) || !(group.hooks as readonly Json[]).some(isArborEntry)) {
      kept.push(group);
      continue;
    }
    const others = (group.hooks as readonly Json[]).filter((entry) => !isArborEntry(entry));
    if (others.length > 0) kept.push({ ...group, hooks: others });
  }
  return kept;
}

function sameJson(a: Json | undefined, b: Json): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
