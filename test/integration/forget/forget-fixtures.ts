/**
 * Sessions for the deletion tests, written with Arbor's own transcript builder: a prompt, a Write of a file
 * and a Bash call whose output says `secret`, so the text lands in raw lines, the search index, the file the
 * session writes (its snapshots, its forks) and the fork's transcript.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { TranscriptBuilder } from '../../../electron/demo/transcript-builder';
import { RAW_LIMIT } from '../../../electron/importers/transcript';
import { Random } from '../../../shared/random';

const USAGE = { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 5 };

export interface WrittenSession {
  readonly sessionId: string;
  readonly transcript: string;
  readonly cwd: string;
  /** The Write's result node: a fork point whose folder holds the written file. */
  readonly writeResultId: string;
  /** The file-history backup the second prompt's checkpoint names (its bytes hold the secret too). */
  readonly backup: string;
}

/**
 * Writes `<projects>/<encoded cwd>/<id>.jsonl` for a session in `cwd` that writes `notes.txt` holding `secret`,
 * then asks for more: that prompt's checkpoint names a file-history backup of notes.txt (`<config>/file-history/
 * <id>/`, beside `projects`) whose bytes, different from the file's, also hold the secret.
 */
/**
 * `longLineSecret`: also a Bash output longer than RAW_LIMIT with this secret past its first RAW_LIMIT bytes, so
 * only the store's whole copy of the long line (migration 034) holds it.
 */
export function writeSecretSession(projects: string, cwd: string, sessionId: string, secret: string, seed = 1, longLineSecret?: string): WrittenSession {
  mkdirSync(cwd, { recursive: true });
  const builder = new TranscriptBuilder({ sessionId, cwd, version: '2.1.30', gitBranch: 'main', slug: 'forget-test' }, new Random(seed), new Date('2026-11-01T10:00:00Z'));
  builder.userPrompt(`Please keep this note: ${secret}`);
  const filePath = join(cwd, 'notes.txt');
  const content = `note ${secret}\n`;
  const write = builder.assistant([{ type: 'tool_use', id: builder.toolUseId(), name: 'Write', input: { file_path: filePath, content } }], 'claude-sonnet-4-5', USAGE, 'tool_use');
  const writeResultId = builder.toolResult(write.calls[0]!, `File created successfully at: ${filePath}`, { type: 'create', filePath, content, structuredPatch: [], originalFile: null });
  const bash = builder.assistant([{ type: 'tool_use', id: builder.toolUseId(), name: 'Bash', input: { command: 'cat notes.txt' } }], 'claude-sonnet-4-5', USAGE, 'tool_use');
  builder.toolResult(bash.calls[0]!, content, { stdout: content, stderr: '', interrupted: false, isImage: false });
  if (longLineSecret !== undefined) {
    const random = new Random(seed + 100);
    const rows: string[] = [];
    for (let bytes = 0, n = 1; bytes < RAW_LIMIT + 64 * 1024; n++) {
      const row = `build step ${n}: compiled src/part-${random.base62(5)}.ts in ${random.int(1, 900)} ms\n`;
      rows.push(row);
      bytes += row.length;
    }
    const output = `${rows.join('')}log ends: ${longLineSecret}\n`;
    const build = builder.assistant([{ type: 'tool_use', id: builder.toolUseId(), name: 'Bash', input: { command: 'npm run build' } }], 'claude-sonnet-4-5', USAGE, 'tool_use');
    builder.toolResult(build.calls[0]!, output, { stdout: output, stderr: '', interrupted: false, isImage: false });
  }
  builder.assistant([{ type: 'text', text: 'Noted.' }], 'claude-sonnet-4-5', USAGE, 'end_turn');
  const backupName = `${createHash('sha1').update(sessionId).digest('hex').slice(0, 16)}@v1`;
  const backupContent = `checkpointed ${content}`;
  builder.fileHistorySnapshot(builder.reserveUuid(), { 'notes.txt': { backupFileName: backupName, version: 1, backupTime: builder.timestamp() } });
  builder.userPrompt('Read it back later.');
  const history = join(dirname(projects), 'file-history', sessionId);
  mkdirSync(history, { recursive: true });
  const backup = join(history, backupName);
  writeFileSync(backup, backupContent);
  const folder = join(projects, cwd.replace(/[^A-Za-z0-9]/g, '-'));
  mkdirSync(folder, { recursive: true });
  const transcript = join(folder, `${sessionId}.jsonl`);
  writeFileSync(transcript, `${builder.take().join('\n')}\n`);
  writeFileSync(filePath, content);
  return { sessionId, transcript, cwd, writeResultId, backup };
}
