/**
 * Synthetic Claude Code sessions for benchmarks and scale tests: realistic line shapes and sizes
 * (one line per content block, progress lines, parallel calls, big tool outputs, rewinds, a compaction),
 * deterministic for a seed, streamed with constant memory so 50k-node sessions and 200 MB corpora are cheap.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Random } from '../../shared/random';
import { SyntheticText } from './synthetic-text';
import { type PlannedCall, SyntheticWorkspace, type ToolName } from './synthetic-tools';
import { type AssistantBlock, type FileBackup, TranscriptBuilder, type Usage } from './transcript-builder';

export interface SyntheticSessionOptions {
  readonly seed: number;
  readonly sessionId?: string;
  readonly cwd?: string;
  readonly startTime?: Date;
  /**
   * Also write the shapes reconstruction must get right (issue 10): tab-indented files with display-only
   * Edit hunks, 3–5 parallel calls whose results arrive in any order, roots in the middle of the file (a
   * prompt after a plan cleared the context, a compaction whose logical parent is in no file), and files
   * changed outside the transcript (by a shell command, or by the user between turns).
   */
  readonly shapes?: boolean;
  /**
   * Told the workspace's real files (absolute paths) as each prompt is written, the truth tests compare with,
   * and what was changed since the last prompt without a line recording the change: by the user between
   * turns, by shell commands.
   */
  readonly onPrompt?: (uuid: string, files: ReadonlyMap<string, string>, changed: { readonly outside: readonly string[]; readonly byShell: readonly string[] }) => void;
}

const MODELS = ['claude-opus-4-6', 'claude-sonnet-4-5-20250929'];
const PROJECTS = ['billing-service', 'arbor-sandbox', 'notes-app', 'ingest-pipeline', 'cli-tools', 'web-dashboard'];
const TOOL_WEIGHTS: readonly (readonly [ToolName, number])[] = [
  ['Read', 30], ['Edit', 25], ['Bash', 22], ['Grep', 10], ['Write', 7], ['Glob', 6],
];
const VERSION = '2.1.39';

/** Claude Code's project folder name: the absolute cwd with every non-alphanumeric char replaced by '-'. */
export function encodeProjectDir(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-');
}

function pickTool(random: Random): ToolName {
  const total = TOOL_WEIGHTS.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = random.next() * total;
  for (const [name, weight] of TOOL_WEIGHTS) {
    roll -= weight;
    if (roll < 0) return name;
  }
  return 'Read';
}

function usage(random: Random, context: number): Usage {
  return {
    input_tokens: random.int(1, 12),
    cache_creation_input_tokens: random.int(100, 6000),
    cache_read_input_tokens: context,
    output_tokens: random.int(20, 2400),
  };
}

/** Yields the JSONL lines (no trailing newline) of one session with about `nodes` uuid lines. */
export function* syntheticSessionLines(nodes: number, options: SyntheticSessionOptions): Generator<string> {
  const random = new Random(options.seed);
  const sessionId = options.sessionId ?? random.uuid();
  const cwd = options.cwd ?? `/home/dev/projects/${random.pick(PROJECTS)}`;
  const start = options.startTime ?? new Date(Date.UTC(2026, 0, 5, 9) + random.int(0, 60 * 24 * 3600) * 1000);
  const slug = `${random.pick(['quiet', 'swift', 'amber', 'drifting'])}-${random.pick(['tumbling', 'humming', 'folded'])}-${random.pick(['river', 'whisper', 'lantern'])}`;
  const builder = new TranscriptBuilder({ sessionId, cwd, version: VERSION, gitBranch: 'main', slug }, random, start);
  const text = new SyntheticText(random);
  const shapes = options.shapes === true;
  const workspace = new SyntheticWorkspace(cwd, random, text, shapes);
  const model = random.pick(MODELS);
  const backups = new Map<string, FileBackup>();
  const compactAt = nodes >= 300 ? Math.floor(nodes * (0.4 + random.next() * 0.3)) : Number.POSITIVE_INFINITY;
  let compacted = false;
  let context = 12_000;
  let previousPrompt: { parent: string | null; files: ReadonlyMap<string, string> } | null = null;
  const changedByShell: string[] = [];

  builder.hookProgress('SessionStart', 'SessionStart:startup', '$HOME/.claude/hooks/session-start.sh', random.uuid());
  yield* builder.take();

  while (builder.nodeCount < nodes) {
    // A real rewind: the user goes back before the last prompt and asks differently (FORMATS.md §1.5).
    const rewind = previousPrompt !== null && random.chance(0.06);
    builder.advance(random.int(20, 600) * 1000);
    const changedOutside = shapes && random.chance(0.15) ? [workspace.changeOutside()] : [];
    if (rewind && previousPrompt) {
      builder.parentNextOn(previousPrompt.parent);
      workspace.restore(previousPrompt.files);
    } else {
      previousPrompt = { parent: builder.last, files: workspace.snapshot() };
      // A plan accepted with the context cleared: a new root, the workspace as it was.
      if (shapes && random.chance(0.08)) builder.parentNextOn(null);
    }
    const promptUuid = builder.reserveUuid();
    builder.fileHistorySnapshot(promptUuid, Object.fromEntries(backups));
    builder.userPrompt(`${rewind ? 'Actually, ' : ''}${text.prose(random.int(1, 4))}`);
    if (options.onPrompt !== undefined) {
      const files = new Map([...workspace.snapshot()].map(([path, content]) => [`${cwd}/${path}`, content]));
      options.onPrompt(promptUuid, files, { outside: changedOutside.map((path) => `${cwd}/${path}`), byShell: changedByShell.map((path) => `${cwd}/${path}`) });
    }
    changedByShell.length = 0;
    yield* builder.take();

    const steps = random.int(2, 12);
    for (let step = 0; step < steps && builder.nodeCount < nodes; step++) {
      builder.advance(random.int(800, 9000));
      const blocks: AssistantBlock[] = [];
      if (random.chance(0.5)) blocks.push({ type: 'thinking', thinking: text.prose(random.int(2, 12)), signature: text.signature() });
      if (random.chance(0.5)) blocks.push({ type: 'text', text: text.prose(random.int(1, 3)) });
      const parallel = random.chance(shapes ? 0.3 : 0.2) ? random.int(2, shapes ? 5 : 3) : 1;
      const planned: PlannedCall[] = [];
      const changing = new Set<string>(); // parallel calls of one message change different files
      for (let i = 0; i < parallel; i++) {
        const call = workspace.plan(pickTool(random), shapes ? changing : undefined);
        if (call.changedFile !== null) changing.add(call.changedFile);
        if (call.shellChanged !== undefined) changedByShell.push(call.shellChanged);
        planned.push(call);
        blocks.push({ type: 'tool_use', id: builder.toolUseId(), name: call.name, input: call.input });
      }
      context += random.int(500, 4000);
      // Some versions thread the message's lines through PreToolUse hook progress.
      const threaded = shapes && random.chance(0.5);
      const preToolUse = (call: { toolUseId: string; name: string }) => builder.hookProgress('PreToolUse', `PreToolUse:${call.name}`, '$HOME/.claude/hooks/pre-tool.sh', call.toolUseId);
      const message = builder.assistant(blocks, model, usage(random, context), 'tool_use', threaded ? preToolUse : undefined);
      // Results arrive in any order; the turn goes on from the last one written.
      const arrival = message.calls.map((_, i) => i);
      if (shapes) for (let i = arrival.length - 1; i > 0; i--) {
        const j = random.int(0, i);
        [arrival[i], arrival[j]] = [arrival[j]!, arrival[i]!];
      }
      arrival.forEach((i) => {
        const call = message.calls[i]!;
        const plan = planned[i];
        if (!plan) return;
        if (plan.progressOutput !== null) builder.bashProgress(call.toolUseId, plan.progressOutput, random.int(2, 40));
        builder.hookProgress('PostToolUse', `PostToolUse:${call.name}`, '$HOME/.claude/hooks/post-tool.sh', call.toolUseId);
        builder.advance(random.int(50, 3000));
        builder.toolResult(call, plan.content, plan.toolUseResult, plan.isError);
        if (plan.changedFile !== null && !backups.has(plan.changedFile)) {
          backups.set(plan.changedFile, { backupFileName: `${random.hex(16)}@v1`, version: 1, backupTime: builder.timestamp() });
          builder.fileHistorySnapshot(builder.last ?? promptUuid, Object.fromEntries(backups), true, promptUuid);
          // Claude Code 2026 also writes the edit's own backup (issue 13); same file and version as the entry above.
          if (shapes) builder.fileHistoryDelta(call.lineUuid, plan.changedFile, backups.get(plan.changedFile)!);
        }
      });
      yield* builder.take();
    }
    builder.advance(random.int(800, 6000));
    builder.assistant([{ type: 'text', text: text.prose(random.int(1, 5)) }], model, usage(random, context), 'end_turn');
    if (random.chance(0.5)) builder.system('turn_duration', { durationMs: random.int(5_000, 400_000), messageCount: random.int(3, 40) });
    const lostParent = shapes && random.chance(0.05); // its logical parent is in no file (a resumed tail)
    if ((!compacted && builder.nodeCount >= compactAt) || lostParent) {
      compacted ||= !lostParent;
      builder.advance(2000);
      const summary = `This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nAnalysis:\n${text.prose(random.int(20, 60))}`;
      builder.compaction('auto', context, summary, lostParent ? random.uuid() : undefined);
      context = random.int(15_000, 30_000);
    }
    yield* builder.take();
  }
}

export interface SyntheticCorpusOptions {
  readonly totalBytes: number;
  readonly nodesPerSession: number;
  readonly seed: number;
}

export interface SyntheticCorpus {
  readonly files: string[];
  readonly bytes: number;
  readonly nodes: number;
}

const CHUNK_BYTES = 256 * 1024;

/**
 * Writes sessions as `<projectsDir>/<encoded cwd>/<uuid>.jsonl` until about `totalBytes`; the last session
 * is shortened (by an estimate of bytes per node) so the corpus does not overshoot by a whole session.
 */
export async function writeSyntheticCorpus(projectsDir: string, opts: SyntheticCorpusOptions): Promise<SyntheticCorpus> {
  const random = new Random(opts.seed);
  const cwds = PROJECTS.slice(0, 3).map((name) => `/home/dev/projects/${name}`);
  const files: string[] = [];
  let bytes = 0;
  let nodes = 0;
  let bytesPerNode = 2500;
  for (let index = 0; bytes < opts.totalBytes; index++) {
    const cwd = random.pick(cwds);
    const sessionId = random.uuid();
    const remainingNodes = Math.ceil((opts.totalBytes - bytes) / bytesPerNode);
    const sessionNodes = Math.max(8, Math.min(opts.nodesPerSession, remainingNodes));
    const dir = join(projectsDir, encodeProjectDir(cwd));
    await mkdir(dir, { recursive: true });
    const file = join(dir, `${sessionId}.jsonl`);
    const written = await writeLines(file, syntheticSessionLines(sessionNodes, { seed: opts.seed * 7919 + index, sessionId, cwd }));
    files.push(file);
    bytes += written.bytes;
    nodes += written.nodes;
    if (written.nodes > 0) bytesPerNode = written.bytes / written.nodes;
  }
  return { files, bytes, nodes };
}

/** Streams lines to a file in large chunks, waiting for 'drain' so memory stays flat. */
async function writeLines(file: string, lines: Iterable<string>): Promise<{ bytes: number; nodes: number }> {
  const stream = createWriteStream(file);
  const failed = new Promise<never>((_, reject) => stream.once('error', reject));
  failed.catch(() => undefined);
  let bytes = 0;
  let nodes = 0;
  let chunk = '';
  const flush = async () => {
    const buffer = Buffer.from(chunk, 'utf8');
    bytes += buffer.length;
    chunk = '';
    if (!stream.write(buffer)) await Promise.race([once(stream, 'drain'), failed]);
  };
  for (const line of lines) {
    // Every line with a uuid starts with its parentUuid (the builder's key order).
    if (line.startsWith('{"parentUuid"')) nodes++;
    chunk += line + '\n';
    if (chunk.length >= CHUNK_BYTES) await flush();
  }
  if (chunk.length > 0) await flush();
  stream.end();
  await Promise.race([once(stream, 'finish'), failed]);
  return { bytes, nodes };
}
