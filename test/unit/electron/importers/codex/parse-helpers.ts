/** Runs the Codex parser on a file and gathers what it emits. */
import { stat } from 'node:fs/promises';
import type { ImportProblem } from '../../../../../shared/model';
import { parseCodexRollout } from '../../../../../electron/importers/codex';
import type { ParsedNode, ParsedRecord, TranscriptFile } from '../../../../../electron/importers/transcript';

export interface Parsed {
  readonly nodes: ParsedNode[];
  readonly records: ParsedRecord[];
  readonly problems: ImportProblem[];
  readonly endOffset: number;
}

export async function codexFile(path: string, sessionHint: string | null = null): Promise<TranscriptFile> {
  const info = await stat(path);
  return { format: 'codex', path, size: info.size, mtimeMs: info.mtimeMs, role: 'main', sessionHint, agentId: null };
}

export async function parseRollout(path: string, startOffset = 0, sessionHint: string | null = null): Promise<Parsed> {
  const nodes: ParsedNode[] = [];
  const records: ParsedRecord[] = [];
  const problems: ImportProblem[] = [];
  const file = await codexFile(path, sessionHint);
  const end = await parseCodexRollout(file, { node: (node) => nodes.push(node), record: (record) => records.push(record), problem: (problem) => problems.push(problem) }, { startOffset, startLine: 1 });
  return { nodes, records, problems, endOffset: end.endOffset };
}
