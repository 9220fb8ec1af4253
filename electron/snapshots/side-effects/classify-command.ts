/**
 * What a shell command may have done outside the workspace, conservatively (DESIGN.md "side effect"): every
 * simple command of the line (shell-parse.ts) is classified on its own and the kinds are collected. A command
 * is free of side effects only when it is a known read-only command (reconstruct/tool-effects.ts), a known
 * local build, test or lint step, a local git operation, or a file operation on paths inside the workspace.
 * Everything else — unknown programs, scripts, interpreters, `bash -c`, `eval`, lines the parser cannot
 * follow — is 'unknown'.
 */
import { isReadOnlyCommand } from '../reconstruct';
import type { SideEffectKind } from '../../../shared/operations';
import { parseShell, SUBSTITUTION, type SimpleCommand } from './shell-parse';
import { classifyProgram, SHELL_KEYWORDS } from './program-rules';
import { isScratchOrWorkspacePath, isWorkspacePath, type CommandContext } from './workspace-paths';

export interface ShellContext {
  /** The folder the command ran in (the session's project), to tell workspace paths from others; null when unknown. */
  readonly cwd: string | null;
}

/** The distinct kinds of side effect the command may have had, in first-seen order; empty when none. */
export function classifyShellCommand(command: string, context: ShellContext = { cwd: null }): SideEffectKind[] {
  const parsed = parseShell(command);
  const kinds = new Set<SideEffectKind>();
  if (parsed.unparseable) kinds.add('unknown');
  const state: CommandContext = { cwd: context.cwd, leftWorkspace: false };
  for (const simple of parsed.commands) for (const kind of classifySimple(simple, state)) kinds.add(kind);
  return [...kinds];
}

function classifySimple(command: SimpleCommand, context: CommandContext): SideEffectKind[] {
  const kinds: SideEffectKind[] = [];
  if (command.writesTo.some((target) => !isScratchOrWorkspacePath(target, context))) kinds.push('unknown');
  const words = withoutKeywords(command.words);
  if (words.length === 0) return kinds;
  // One quoted word per argument, so the read-only check sees exactly this command and nothing more. A
  // substitution's value is data for the program (the commands it ran are classified on their own).
  const program = words.findIndex((word) => !ASSIGNMENT.test(word));
  const readable = words.map((word, index) => (index > program && word.includes(SUBSTITUTION) ? 'substituted' : word));
  if (!(words[program] ?? '').includes('$') && isReadOnlyCommand(readable.map(quote).join(' '))) {
    trackDirectoryChange(words, context);
    return kinds;
  }
  for (const kind of classifyProgram(words, context)) if (!kinds.includes(kind)) kinds.push(kind);
  return kinds;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** `do`, `then`, `!`, `{`, … start a part without running anything themselves. */
function withoutKeywords(words: readonly string[]): readonly string[] {
  let at = 0;
  while (at < words.length && SHELL_KEYWORDS.has(words[at]!)) at++;
  return at === 0 ? words : words.slice(at);
}

function quote(word: string): string {
  return /^[A-Za-z0-9_./=:@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/** `cd` somewhere outside the workspace makes later relative paths point outside too. */
function trackDirectoryChange(words: readonly string[], context: CommandContext): void {
  const at = words.findIndex((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
  const program = words[at];
  if (program !== 'cd' && program !== 'pushd' && program !== 'popd') return;
  const target = words.slice(at + 1).find((word) => !word.startsWith('-'));
  if (program === 'popd' || target === undefined || !isWorkspacePath(target, context)) context.leftWorkspace = true;
}
