/**
 * `arbor demo` / `demo.create`: a small real git workspace plus a Claude Code transcript of an agent
 * working in it, so a new user can try browsing, rewinding and forking without their own sessions.
 * The workspace ends in the state after the main branch's last edit; every Edit/Write result carries
 * the real pre-edit file, so rewinding to any step can be reconstructed from the transcript.
 */
import { mkdir, readdir, realpath, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { ArborError, throwIfAborted } from '../../shared/errors';
import { commitDemoWorkspace } from '../git/demo-workspace';
import { IGNORED_FILES, INITIAL_FILES } from './demo-files';
import { demoTranscript } from './demo-script';
import { Random } from '../../shared/random';
import { encodeProjectDir } from './synthetic';

export interface CreateDemoOptions {
  /** The clock: the session's timestamps end shortly before `now()`. */
  readonly now?: () => Date;
  readonly signal?: AbortSignal;
}

export interface DemoCreated {
  readonly dir: string;
  readonly workspaceDir: string;
  /** The main transcript first, then the subagent transcript. */
  readonly transcriptFiles: string[];
  readonly sessionId: string;
}

const SESSION_STARTS_BEFORE_NOW_MS = 75 * 60_000;
const COMMIT_BEFORE_SESSION_MS = 10 * 60_000;

/** FNV-1a: a different demo (new session id, new uuids) per folder and time, identical for identical inputs. */
function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

async function isEmptyOrMissing(path: string): Promise<boolean> {
  try {
    return (await readdir(path)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

async function writeFiles(root: string, files: ReadonlyMap<string, string>): Promise<void> {
  for (const [path, content] of files) {
    const target = join(root, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }
}

export async function createDemo(dir: string, options: CreateDemoOptions = {}): Promise<DemoCreated> {
  const now = options.now ?? (() => new Date());
  const signal = options.signal;
  throwIfAborted(signal);
  await mkdir(resolve(dir), { recursive: true });
  // Claude Code records the real cwd (symlinks resolved), so the demo does too.
  const root = await realpath(resolve(dir));
  const workspaceDir = join(root, 'workspace');
  const transcriptsDir = join(root, 'transcripts');
  if (!(await isEmptyOrMissing(workspaceDir)) || !(await isEmptyOrMissing(transcriptsDir))) {
    throw new ArborError('BAD_REQUEST', `${root} already contains a demo (workspace/ or transcripts/ is not empty)`, { dir: root });
  }

  const end = now();
  const start = new Date(end.getTime() - SESSION_STARTS_BEFORE_NOW_MS);
  const random = new Random(seedOf(`${end.toISOString()}\n${workspaceDir}`));

  await mkdir(workspaceDir, { recursive: true });
  await writeFiles(workspaceDir, INITIAL_FILES);
  await writeFiles(workspaceDir, IGNORED_FILES);
  throwIfAborted(signal);
  await commitDemoWorkspace(workspaceDir, [...INITIAL_FILES.keys()], {
    message: 'Initial commit: word counter',
    when: new Date(start.getTime() - COMMIT_BEFORE_SESSION_MS),
    ...(signal ? { signal } : {}),
  });

  const transcript = demoTranscript(workspaceDir, INITIAL_FILES, start, random);
  throwIfAborted(signal);
  await writeFiles(workspaceDir, transcript.files);

  const projectDir = join(transcriptsDir, encodeProjectDir(workspaceDir));
  const mainFile = join(projectDir, `${transcript.sessionId}.jsonl`);
  const subagentsDir = join(projectDir, transcript.sessionId, 'subagents');
  const subagentFile = join(subagentsDir, `agent-${transcript.subagent.agentId}.jsonl`);
  await mkdir(subagentsDir, { recursive: true });
  await writeFile(subagentFile, transcript.subagent.lines.join('\n') + '\n');
  await writeFile(join(subagentsDir, `agent-${transcript.subagent.agentId}.meta.json`), JSON.stringify(transcript.subagent.meta));
  // The main file last: a watcher that sees it finds its subagent already in place.
  await writeFile(mainFile, transcript.lines.join('\n') + '\n');
  return { dir: root, workspaceDir, transcriptFiles: [mainFile, subagentFile], sessionId: transcript.sessionId };
}
