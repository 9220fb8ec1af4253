/**
 * `agent-<id>.meta.json` beside a subagent's transcript (2.1.x, FORMATS.md §1.1; 2026 adds `parentAgentId`
 * for agents spawned by agents, all stored flat in one `subagents/` folder): what the run is (`agentType`,
 * `description`, its label) and who spawned it. A missing or unreadable meta file says nothing.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { TranscriptFile } from '../transcript';
import { isObject, stringField } from './json-shape';
import { runLabel } from './lineage';

/** Meta files are a few hundred bytes; anything larger is not one. */
const META_LIMIT = 64 * 1024;
const AGENT_FILE = /^agent-(.+)\.jsonl$/;

export type AgentMeta = Pick<TranscriptFile, 'parentAgentId' | 'agentLabel' | 'workflowRunId'>;

export async function readAgentMeta(transcriptPath: string): Promise<AgentMeta> {
  const agentId = AGENT_FILE.exec(basename(transcriptPath))?.[1];
  const workflow = workflowOf(transcriptPath);
  if (agentId === undefined) return workflow === null ? {} : { workflowRunId: workflow };
  let meta: unknown;
  try {
    const text = await readFile(join(dirname(transcriptPath), `agent-${agentId}.meta.json`), 'utf8');
    meta = text.length > META_LIMIT ? null : JSON.parse(text);
  } catch {
    meta = null;
  }
  const parentAgentId = isObject(meta) ? stringField(meta, 'parentAgentId') : null;
  const label = isObject(meta) ? runLabel(stringField(meta, 'agentType'), stringField(meta, 'description')) : null;
  // A workflow's agents (subagents/workflows/<runId>/) were spawned by what launched the run: the call whose
  // result names that runId (lineage.ts), unless their meta names a parent agent.
  return { parentAgentId, agentLabel: label, ...(workflow === null ? {} : { workflowRunId: workflow }) };
}

/** `<wf>` of `…/subagents/workflows/<wf>/agent-<id>.jsonl`, else null. */
function workflowOf(path: string): string | null {
  const folders = dirname(path).split(/[\\/]/);
  const at = folders.lastIndexOf('workflows');
  return at > 0 && folders[at - 1] === 'subagents' && at === folders.length - 2 ? (folders[at + 1] ?? null) : null;
}
