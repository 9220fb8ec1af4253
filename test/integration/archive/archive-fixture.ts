/**
 * A Claude Code session whose second prompt's file state is known only from a file-history backup, written with
 * Arbor's own transcript builder: a shell command writes notes.txt (the transcript cannot replay it), the next
 * prompt's checkpoint names a backup of notes.txt holding "draft", then an Edit turns it into "final" without
 * an originalFile. Only the backup says what notes.txt held at that prompt.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeProjectDir } from '../../../electron/forks/claude-projects';
import { TranscriptBuilder } from '../../../electron/demo/transcript-builder';
import { Random } from '../../../shared/random';

const USAGE = { input_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 7 };
const MODEL = 'claude-sonnet-4-5';

export interface ArchivedSession {
  readonly sessionId: string;
  readonly transcript: string;
  readonly fileHistory: string;
  readonly cwd: string;
  readonly notes: string;
  /** The second prompt: notes.txt there is the backup's bytes. */
  readonly checkpointPrompt: string;
  readonly editResult: string;
  readonly backupBytes: Buffer;
  /** Every line written, by uuid (the fork rules compare the copy with them once the file is gone). */
  readonly lines: ReadonlyMap<string, string>;
}

export function writeArchivedSession(configDir: string, cwd: string, sessionId: string): ArchivedSession {
  mkdirSync(cwd, { recursive: true });
  const notes = join(cwd, 'notes.txt');
  const builder = new TranscriptBuilder({ sessionId, cwd, version: '2.1.30', gitBranch: 'main', slug: 'archive-test' }, new Random(15), new Date('2026-10-01T09:00:00Z'));
  builder.fileHistorySnapshot(builder.reserveUuid(), {});
  builder.userPrompt('Draft the release notes with a shell command');
  const bash = builder.assistant([{ type: 'tool_use', id: builder.toolUseId(), name: 'Bash', input: { command: 'printf "draft\\n" > notes.txt' } }], MODEL, USAGE, 'tool_use');
  builder.toolResult(bash.calls[0]!, '', { stdout: '', stderr: '', interrupted: false, isImage: false });
  builder.assistant([{ type: 'text', text: 'Drafted the quarterly notes.' }], MODEL, USAGE, 'end_turn');
  const backupName = '5eed0123abcd4567@v1';
  const checkpointPrompt = builder.reserveUuid();
  builder.fileHistorySnapshot(checkpointPrompt, { 'notes.txt': { backupFileName: backupName, version: 1, backupTime: builder.timestamp() } });
  builder.userPrompt('Polish the quarterly notes');
  const edit = builder.assistant([{ type: 'tool_use', id: builder.toolUseId(), name: 'Edit', input: { file_path: notes, old_string: 'draft', new_string: 'final' } }], MODEL, USAGE, 'tool_use');
  const editResult = builder.toolResult(edit.calls[0]!, `The file ${notes} has been updated.`, {
    filePath: notes,
    oldString: 'draft',
    newString: 'final',
    replaceAll: false,
    userModified: false,
    structuredPatch: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-draft', '+final'] }],
  });
  builder.assistant([{ type: 'text', text: 'Polished.' }], MODEL, USAGE, 'end_turn');
  const text = builder.take();
  const folder = join(configDir, 'projects', encodeProjectDir(cwd));
  mkdirSync(folder, { recursive: true });
  const transcript = join(folder, `${sessionId}.jsonl`);
  writeFileSync(transcript, `${text.join('\n')}\n`);
  const fileHistory = join(configDir, 'file-history', sessionId);
  mkdirSync(fileHistory, { recursive: true });
  const backupBytes = Buffer.from('draft\n');
  writeFileSync(join(fileHistory, backupName), backupBytes);
  // The workspace as the session left it.
  writeFileSync(notes, 'final\n');
  const lines = new Map<string, string>();
  for (const line of text) {
    const uuid = (JSON.parse(line) as { uuid?: unknown }).uuid;
    if (typeof uuid === 'string') lines.set(uuid, line);
  }
  return { sessionId, transcript, fileHistory, cwd, notes, checkpointPrompt, editResult, backupBytes, lines };
}
