/** Labels for Codex tool calls, by the same rules as Claude Code's: the tool and its main argument, one line. */
import { clip, firstLine } from '../claude-code/label-text';
import { isObject, type JsonObject } from '../claude-code/json-shape';
import { shortPath } from '../claude-code/tool-labels';

export function codexCallLabel(name: string, args: unknown, cwd: string | null): string {
  const input: JsonObject = isObject(args) ? args : {};
  switch (name) {
    case 'exec_command':
    case 'shell':
    case 'local_shell':
    case 'container.exec': {
      const command = commandText(input.cmd ?? input.command);
      // A patch run through the shell (`["apply_patch", "…"]`, a heredoc) is labelled as the patch it is.
      if (command !== null && command.includes('*** Begin Patch') && /(^|\s|['"])apply_patch\b/.test(command)) return patchLabel(command, cwd);
      return command === null ? name : `${name}: ${firstLine(command, 100)}`;
    }
    case 'apply_patch':
      return patchLabel(typeof args === 'string' ? args : typeof input.input === 'string' ? input.input : '', cwd);
    case 'update_plan': {
      const plan = input.plan;
      return Array.isArray(plan) ? `update_plan (${plan.length} steps)` : 'update_plan';
    }
    case 'write_stdin': {
      const chars = typeof input.chars === 'string' ? input.chars : '';
      const session = typeof input.session_id === 'number' || typeof input.session_id === 'string' ? ` session ${input.session_id}` : '';
      return chars.length === 0 ? `write_stdin:${session} (poll)` : clip(`write_stdin:${session} ${JSON.stringify(chars)}`);
    }
    case 'spawn_agent': {
      const type = typeof input.agent_type === 'string' ? ` (${input.agent_type})` : '';
      const message = typeof input.message === 'string' ? `: ${firstLine(input.message, 90)}` : '';
      return clip(`spawn_agent${type}${message}`);
    }
    default: {
      const first = Object.values(input).find((value): value is string => typeof value === 'string' && value.length > 0);
      return clip(first === undefined ? name : `${name}: ${firstLine(first, 100)}`);
    }
  }
}

/** `apply_patch: Add gamma.txt, Update src/a.ts (+1)` from the patch's file headers. */
export function patchLabel(patch: string, cwd: string | null): string {
  const files: string[] = [];
  for (const match of patch.matchAll(/^\*\*\* (Add|Update|Delete) File: (.+)$/gm)) {
    files.push(`${match[1]} ${shortPath((match[2] ?? '').trim(), cwd)}`);
  }
  if (files.length === 0) return 'apply_patch';
  const more = files.length > 2 ? ` (+${files.length - 2})` : '';
  return clip(`apply_patch: ${files.slice(0, 2).join(', ')}${more}`);
}

/**
 * A command as a shell would show it: a string as written; an argv joined with each word quoted where the
 * shell needs it; `bash -lc "<script>"` (any sh-like shell, `-c`/`-lc`) unwrapped to the script, which is
 * what was run.
 */
export function shellCommandText(command: unknown): string | null {
  if (typeof command === 'string' && command.length > 0) return command;
  if (!Array.isArray(command) || command.length === 0 || !command.every((part) => typeof part === 'string')) return null;
  const parts = command as string[];
  const shell = (parts[0] ?? '').split('/').pop() ?? '';
  if (parts.length === 3 && SHELLS.has(shell) && SCRIPT_FLAGS.has(parts[1] ?? '')) return parts[2] ?? null;
  return parts.map(shellWord).join(' ');
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'pwsh', 'powershell', 'powershell.exe', 'cmd', 'cmd.exe']);
const SCRIPT_FLAGS = new Set(['-c', '-lc', '-ic', '-Command', '/c', '/C']);

function shellWord(word: string): string {
  if (word.length > 0 && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, "'\\''")}'`;
}

function commandText(command: unknown): string | null {
  return shellCommandText(command);
}
