/**
 * What the demo agent does in the "tally" workspace. The story covers every shape Arbor must show:
 * thinking, parallel reads, a failed Edit, a rewind that abandons a branch, a subagent, a compaction,
 * and a final tool call whose outcome was never recorded.
 *
 * Every file is edited (its content read whole) before the first command that may write files, the build
 * before the publish: the earlier checks are read-only (`git diff`, `grep`). So the reconstruction honestly
 * knows every node up to the build and honestly does not know the nodes after it (DESIGN.md "snapshot";
 * a file's first read tells nothing of it before an earlier writing command).
 */
import { DemoSession } from './demo-session';
import { type Random } from '../../shared/random';
import { TranscriptBuilder } from './transcript-builder';

export const DEMO_MODEL = 'claude-opus-4-6';
const SUBAGENT_MODEL = 'claude-sonnet-4-5-20250929';
const VERSION = '2.1.39';

export interface DemoTranscript {
  readonly sessionId: string;
  readonly lines: readonly string[];
  readonly subagent: { readonly agentId: string; readonly lines: readonly string[]; readonly meta: Readonly<Record<string, string>> };
  /** The workspace after the main branch's last edit. */
  readonly files: ReadonlyMap<string, string>;
}

export function demoTranscript(cwd: string, initialFiles: ReadonlyMap<string, string>, start: Date, random: Random): DemoTranscript {
  const sessionId = random.uuid();
  const scope = { sessionId, cwd, version: VERSION, gitBranch: 'main', slug: 'quiet-folded-lantern' };
  const builder = new TranscriptBuilder(scope, random, start);
  const agent = new DemoSession(builder, new Map(initialFiles), random, DEMO_MODEL);
  const lines: string[] = [];

  builder.record({ type: 'permission-mode', permissionMode: 'default', sessionId });
  builder.hookProgress('SessionStart', 'SessionStart:startup', '$HOME/.claude/hooks/session-start.sh', random.uuid());

  // Turn 1: --top N, with a failed edit on the way.
  agent.prompt('Add a --top N option to tally so it prints only the N most frequent words.', 1);
  agent.step(
    { thinking: 'I need to see how counting and argument parsing work before adding an option. Both files are small; read them together.', text: "I'll look at the counting code and the entry point first." },
    [agent.read('src/count.ts'), agent.read('src/index.ts')],
  );
  agent.step({ text: 'Adding a `topWords` helper next to `sortByCount`.' }, [
    agent.edit(
      'src/count.ts',
      '  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));\n}\n',
      '  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));\n}\n\n/** The `limit` most frequent words. */\nexport function topWords(counts: Map<string, number>, limit: number): [string, number][] {\n  return sortByCount(counts).slice(0, limit);\n}\n',
    ),
  ]);
  agent.step({}, [agent.edit('src/index.ts', '  const [file] = argv;', "  const [file, flag, value] = argv;")]);
  agent.step({ text: 'That string is not in the file; let me re-read the entry point.' }, [agent.read('src/index.ts')]);
  agent.step({ text: 'Parsing `--top` and passing the limit through.' }, [
    agent.edit(
      'src/index.ts',
      "  const file = argv[0];\n  if (!file) {\n    console.error('usage: tally <file>');\n    return 2;\n  }\n  const counts = countWords(readFileSync(file, 'utf8'));\n  console.log(formatCounts(sortByCount(counts)));",
      "  const topIndex = argv.indexOf('--top');\n  const limit = topIndex === -1 ? Infinity : Number(argv[topIndex + 1]);\n  const file = argv.find((arg, i) => !arg.startsWith('--') && (topIndex === -1 || i !== topIndex + 1));\n  if (!file || Number.isNaN(limit)) {\n    console.error('usage: tally [--top N] <file>');\n    return 2;\n  }\n  const counts = countWords(readFileSync(file, 'utf8'));\n  console.log(formatCounts(topWords(counts, limit)));",
    ),
  ]);
  agent.step({}, [agent.edit('src/index.ts', "import { countWords, sortByCount } from './count.js';", "import { countWords, topWords } from './count.js';")]);
  agent.step({}, [agent.bash('git diff --stat', 'Show what changed', ' src/count.ts |  5 +++++\n src/index.ts | 11 ++++++-----\n 2 files changed, 11 insertions(+), 5 deletions(-)')]);
  agent.reply('Done: `tally --top 3 notes.txt` now prints only the three most frequent words. `topWords` lives in `src/count.ts`.');
  builder.system('turn_duration', { durationMs: 48_210, messageCount: 17 });
  const forkPoint = builder.last;
  const beforeColors = new Map(agent.files);

  // Turn 2 (abandoned by a rewind): colors.
  agent.prompt('Make the output colorful: print the counts in green.', 3);
  agent.step({ text: 'Wrapping the count in an ANSI green escape.' }, [
    agent.edit('src/format.ts', '`${String(n).padStart(width)} ${word}`', '`\\x1b[32m${String(n).padStart(width)}\\x1b[0m ${word}`'),
  ]);
  agent.reply('Counts are now printed in green.');

  // Turn 3: the user rewinds (restore code and conversation) and asks for JSON instead.
  agent.restore(beforeColors);
  builder.parentNextOn(forkPoint);
  agent.prompt('Actually, skip the colors. Add a --json flag that prints the counts as a JSON object instead.', 6);
  const subagent = reviewFormatter(agent, random, sessionId, cwd);
  agent.step({ thinking: 'JSON output should keep the sort order. A reviewer can check the formatter for edge cases while I add the flag.', text: "I'll have a subagent review the formatter while I add the flag." }, [subagent.call]);
  agent.step({ text: 'Adding a JSON formatter.' }, [
    agent.write('src/json.ts', '/** The counts as a JSON object, most frequent word first. */\nexport function formatJson(entries: [string, number][]): string {\n  return JSON.stringify(Object.fromEntries(entries), null, 2);\n}\n'),
  ]);
  agent.step({}, [agent.edit('src/index.ts', "import { formatCounts } from './format.js';", "import { formatCounts } from './format.js';\nimport { formatJson } from './json.js';")]);
  agent.step({}, [
    agent.edit('src/index.ts', '  console.log(formatCounts(topWords(counts, limit)));', "  const entries = topWords(counts, limit);\n  console.log(argv.includes('--json') ? formatJson(entries) : formatCounts(entries));"),
  ]);
  agent.step({}, [agent.bash('grep -n formatJson src/index.ts src/json.ts', 'Check the JSON formatter is wired in', "src/index.ts:3:import { formatJson } from './json.js';\nsrc/index.ts:13:  console.log(argv.includes('--json') ? formatJson(entries) : formatCounts(entries));\nsrc/json.ts:2:export function formatJson(entries: [string, number][]): string {")]);
  agent.reply('`--json` prints the counts as a JSON object (and combines with `--top`). The reviewer found no problems with empty input.');

  // A manual /compact, then two more turns on the compacted conversation.
  builder.advance(4 * 60_000);
  builder.compaction(
    'manual',
    41_532,
    'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nSummary:\n1. The user asked for a --top N option in tally; topWords() was added to src/count.ts and src/index.ts parses --top.\n2. A request for colored output was rewound; instead a --json flag was added (src/json.ts, formatJson).\n3. A subagent reviewed src/format.ts for edge cases and found none.',
  );
  agent.prompt('Document --top and --json in the README.', 2);
  agent.step({ text: 'Adding both options to the usage section.' }, [
    agent.edit('README.md', 'node dist/index.js notes.txt\n```\n', 'node dist/index.js notes.txt\n```\n\nOptions:\n\n- `--top N` prints only the N most frequent words.\n- `--json` prints the counts as a JSON object.\n'),
  ]);
  agent.reply('The README now documents `--top N` and `--json`.');

  agent.prompt('Bump the version to 0.2.0 and publish it to npm.', 5);
  agent.step({ text: 'Bumping the version.' }, [agent.edit('package.json', '"version": "0.1.0"', '"version": "0.2.0"')]);
  // The first command that may write files: from its result on, the reconstruction cannot know the files.
  agent.step({}, [agent.bash('npm run build && node dist/index.js --json --top 2 README.md', 'Build and try --json before publishing', '\n> tally@0.2.0 build\n> tsc\n\n{\n  "the": 3,\n  "file": 2\n}')]);
  // The user interrupted the publish: the call is in the transcript, its outcome is not.
  agent.step({ text: 'Publishing 0.2.0.' }, [agent.unanswered('Bash', { command: 'npm publish', description: 'Publish tally 0.2.0 to npm' })]);

  builder.record({ type: 'last-prompt', lastPrompt: 'Bump the version to 0.2.0 and publish it to npm.', sessionId });
  builder.summary('Add --top and --json options to tally', builder.last ?? '');
  lines.push(...builder.take());
  return { sessionId, lines, subagent: subagent.transcript, files: new Map(agent.files) };
}

function reviewFormatter(parent: DemoSession, random: Random, sessionId: string, cwd: string) {
  const agentId = `a${random.hex(16)}`;
  const prompt = 'Review src/format.ts in the tally project for edge cases: empty input, very large counts, words with apostrophes. Report problems only; do not edit files.';
  const description = 'Review formatter edge cases';
  const start = new Date(Date.parse(parent.builder.timestamp()) + 2_000);
  const builder = new TranscriptBuilder({ sessionId, cwd, version: VERSION, gitBranch: 'main', slug: 'quiet-folded-lantern', agentId }, random, start);
  const sub = new DemoSession(builder, parent.files, random, SUBAGENT_MODEL);
  sub.prompt(prompt, 0);
  sub.step({ text: "I'll read the formatter." }, [sub.read('src/format.ts')]);
  const report = 'No problems found. `formatCounts([])` returns an empty string (the `Math.max(1, …)` guard keeps the width valid), counts of any size are padded correctly, and apostrophes stay inside words because `countWords` splits on `[^a-z0-9\']+`.';
  sub.reply(report, 'Empty list: Math.max(1) → width 1, map over [] → "". Large counts: padStart handles any width. Apostrophes: kept by the split regex.');
  const lines = builder.take();
  const toolUseResult = {
    status: 'completed',
    prompt,
    agentId,
    agentType: 'general-purpose',
    content: [{ type: 'text', text: report }],
    totalDurationMs: 21_840,
    totalTokens: 18_377,
    totalToolUseCount: 1,
    usage: { input_tokens: 4, cache_creation_input_tokens: 1_210, cache_read_input_tokens: 16_920, output_tokens: 243 },
  };
  const call = {
    name: 'Agent',
    input: { description, subagent_type: 'general-purpose', prompt },
    outcome: { content: [{ type: 'text', text: report }], toolUseResult, isError: false },
    progress: (b: TranscriptBuilder, made: { readonly toolUseId: string }) => {
      b.agentProgress(made.toolUseId, agentId, prompt);
      b.advance(21_840);
    },
  };
  return { call, transcript: { agentId, lines, meta: { agentType: 'general-purpose', description } } };
}
