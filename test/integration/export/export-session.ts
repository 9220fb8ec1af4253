/**
 * The session the export goldens are made from, written with Arbor's own generator (electron/demo): a fork
 * (a rewound prompt), an Edit and its diff, a failed Edit, a call with no outcome, thinking, a subagent, a
 * compaction, Bash output with ANSI colours, hostile HTML and Markdown in a prompt, and realistic secrets
 * generated from a seed (secretlint ignores the well-known example keys), planted across every field kind.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DemoSession } from '../../../electron/demo/demo-session';
import { encodeProjectDir } from '../../../electron/demo/synthetic';
import { TranscriptBuilder } from '../../../electron/demo/transcript-builder';
import { Random } from '../../../shared/random';

export const EXPORT_SESSION_ID = '5e55e0a7-0e0e-4d2b-9a55-00000000e0a7';
/** The project folder the transcript says the agent ran in (no folder is read: goldens name no temp path). */
export const EXPORT_CWD = '/home/dev/shipit';
const MODEL = 'claude-opus-4-6';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The planted secrets, by what they are: the tests check that each is found and, redacted, gone. */
export interface PlantedSecrets {
  readonly githubToken: string;
  readonly slackToken: string;
  readonly anthropicKey: string;
  readonly npmToken: string;
  readonly databasePassword: string;
  readonly basicAuthPassword: string;
  readonly envPassword: string;
  readonly envToken: string;
  readonly awsSecretKey: string;
  /** A real RSA key (secretlint parses a key to tell it is one), new at each run: redacted, it never reaches a golden. */
  readonly privateKey: string;
}

export function plantedSecrets(seed = 15): PlantedSecrets {
  const random = new Random(seed);
  const base64 = (n: number) => Array.from({ length: n }, () => BASE64[random.int(0, 63)]).join('');
  const digits = (n: number) => Array.from({ length: n }, () => String(random.int(0, 9))).join('');
  return {
    githubToken: `ghp_${random.base62(36)}`,
    slackToken: `xoxb-${digits(12)}-${digits(13)}-${random.base62(24)}`,
    anthropicKey: `sk-ant-api03-${random.base62(93)}AA`,
    npmToken: `npm_${random.base62(36)}`,
    databasePassword: random.base62(16),
    basicAuthPassword: random.base62(14),
    envPassword: random.base62(18),
    envToken: random.base62(32),
    awsSecretKey: base64(40).replace(/\+/g, 'k'),
    privateKey: generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
  };
}

export const HOSTILE_PROMPT = [
  'Ship it. <script>alert("prompt")</script> <img src=x onerror="alert(1)">',
  '',
  '[a harmless link](javascript:alert(document.cookie)) and <a href="javascript:alert(2)" onclick="steal()">another</a>',
  '',
  '<iframe src="https://evil.example/"></iframe> **bold** `<b>code</b>`',
].join('\n');

export interface WrittenExportSession {
  readonly projectsDir: string;
  readonly secrets: PlantedSecrets;
  /** The prompt before the rewind and the one after it (the fork's two branches). */
  readonly abandonedPrompt: string;
  readonly keptPrompt: string;
}

/** Writes the transcript (and its subagent) under `<home>/.claude/projects`. */
export function writeExportSession(home: string): WrittenExportSession {
  const secrets = plantedSecrets();
  const random = new Random(1515);
  const start = new Date('2026-11-20T09:00:00.000Z');
  const scope = { sessionId: EXPORT_SESSION_ID, cwd: EXPORT_CWD, version: '2.1.39', gitBranch: 'main', slug: 'brave-export-otter' };
  const builder = new TranscriptBuilder(scope, random, start);
  const files = new Map([
    ['deploy.sh', '#!/bin/sh\nset -e\nnpm run build\nrsync -a dist/ deploy@host:/srv/app\n'],
    ['config/.env', `DATABASE_URL=postgres://app:${secrets.databasePassword}@db.internal:5432/app\nLOG_LEVEL=info\n`],
  ]);
  const agent = new DemoSession(builder, files, random, MODEL);

  agent.prompt(HOSTILE_PROMPT, 1);
  agent.step(
    { thinking: 'First I should look at the deploy script and the environment it runs with.', text: "I'll read the deploy script and check the environment." },
    [agent.read('deploy.sh'), agent.bash('env | sort', 'Show the environment', `HOME=/home/dev\nGITHUB_TOKEN=${secrets.envToken}\nPASSWORD=${secrets.envPassword}\nPATH=/usr/bin:/bin\nSLACK_BOT=${secrets.slackToken}`)],
  );
  agent.step({ text: 'Running the tests first.' }, [agent.bash('npm test', 'Run the tests', '\u001b[32m✓\u001b[39m 12 passed\n\u001b[31m✗\u001b[39m 1 failed: \u001b[1mdeploy config\u001b[22m')]);
  agent.step({}, [agent.edit('deploy.sh', 'rsync -a dist/ deploy@host:/srv/app', 'rsync -az --delete dist/ deploy@host:/srv/app')]);
  agent.step({ text: 'Fixing the log level too.' }, [agent.edit('config/.env', 'LOG_LEVEL=debug', 'LOG_LEVEL=warn')]);
  agent.step({}, [
    agent.bash(
      `curl -fsS https://deploy:${secrets.basicAuthPassword}@git.example.com/api/hooks && psql postgres://admin:${secrets.databasePassword}@db.internal:5432/app -c 'select 1'`,
      'Ping the deploy hook and the database',
      ' ?column?\n----------\n        1\n(1 row)',
    ),
  ]);
  agent.step({}, [agent.write('keys/deploy_key', secrets.privateKey)]);
  agent.reply(`The deploy script now deletes stale files. I used the token \`${secrets.githubToken}\` from your message for the API.`);
  builder.system('turn_duration', { durationMs: 31_000, messageCount: 12 });
  const forkPoint = builder.last;

  // A branch the user rewound away from.
  const abandonedPrompt = 'Also publish the package to npm.';
  agent.prompt(abandonedPrompt, 2);
  agent.step({ text: 'Publishing.' }, [agent.bash(`NPM_TOKEN=${secrets.npmToken} npm publish`, 'Publish', '+ shipit@1.0.0')]);
  agent.reply('Published shipit@1.0.0.');

  // The rewind: the kept branch, with a subagent, a compaction and a call whose outcome was never recorded.
  builder.parentNextOn(forkPoint);
  const keptPrompt = 'Skip publishing. Have a reviewer check deploy.sh, then deploy.';
  agent.prompt(keptPrompt, 3);
  const subagent = reviewer(agent, random);
  agent.step({ thinking: 'A second pair of eyes on rsync --delete is worth it.', text: 'Asking a reviewer to check the script.' }, [subagent.call]);
  builder.advance(60_000);
  builder.compaction('manual', 38_000, `Summary:\n1. deploy.sh now uses rsync -az --delete.\n2. The reviewer found no problem.\n3. The Anthropic key ${secrets.anthropicKey} is in the environment.`);
  agent.prompt('Deploy now.', 1);
  agent.step({ text: 'Deploying.' }, [agent.unanswered('Bash', { command: './deploy.sh', description: 'Deploy' })]);
  builder.summary(`Deploy shipit with ${secrets.githubToken}`, builder.last ?? '');

  const projectsDir = join(home, '.claude', 'projects');
  const projectDir = join(projectsDir, encodeProjectDir(EXPORT_CWD));
  const subagentsDir = join(projectDir, EXPORT_SESSION_ID, 'subagents');
  mkdirSync(subagentsDir, { recursive: true });
  writeFileSync(join(subagentsDir, `agent-${subagent.agentId}.jsonl`), subagent.lines.join('\n') + '\n');
  writeFileSync(join(subagentsDir, `agent-${subagent.agentId}.meta.json`), JSON.stringify({ agentType: 'general-purpose', description: 'Review deploy.sh' }));
  writeFileSync(join(projectDir, `${EXPORT_SESSION_ID}.jsonl`), builder.take().join('\n') + '\n');
  return { projectsDir, secrets, abandonedPrompt, keptPrompt };
}

function reviewer(parent: DemoSession, random: Random) {
  const agentId = `a${random.hex(16)}`;
  const prompt = 'Review deploy.sh: is rsync --delete safe here? Report problems only.';
  const start = new Date(Date.parse(parent.builder.timestamp()) + 2_000);
  const builder = new TranscriptBuilder({ ...parent.builder.scope, agentId }, random, start);
  const sub = new DemoSession(builder, parent.files, random, 'claude-sonnet-4-5-20250929');
  sub.prompt(prompt, 0);
  sub.step({ text: "I'll read the script." }, [sub.read('deploy.sh')]);
  const report = 'No problems: `--delete` only removes files under /srv/app that are not in dist/.';
  sub.reply(report);
  const lines = builder.take();
  const toolUseResult = { status: 'completed', prompt, agentId, agentType: 'general-purpose', content: [{ type: 'text', text: report }], totalDurationMs: 9_000, totalTokens: 4_000, totalToolUseCount: 1 };
  const call = {
    name: 'Agent',
    input: { description: 'Review deploy.sh', subagent_type: 'general-purpose', prompt },
    outcome: { content: [{ type: 'text', text: report }], toolUseResult, isError: false },
    progress: (b: TranscriptBuilder, made: { readonly toolUseId: string }) => {
      b.agentProgress(made.toolUseId, agentId, prompt);
      b.advance(9_000);
    },
  };
  return { call, agentId, lines };
}
