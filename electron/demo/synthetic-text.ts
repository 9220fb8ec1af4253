/**
 * Plausible text for synthetic transcripts: TypeScript source lines, prose for prompts and answers,
 * command output. Pools are built once per session from the seed, so generating megabytes costs one
 * random draw per line instead of per character.
 */
import { type Random } from '../../shared/random';

const WORDS = [
  'session', 'node', 'branch', 'parent', 'index', 'cursor', 'offset', 'buffer', 'result', 'options', 'entry',
  'record', 'handler', 'payload', 'snapshot', 'store', 'reader', 'writer', 'token', 'limit', 'queue', 'cache',
  'config', 'request', 'response', 'channel', 'event', 'listener', 'worker', 'path', 'file', 'line', 'range',
  'layout', 'graph', 'edge', 'label', 'status', 'error', 'retry', 'timeout', 'signal', 'batch', 'chunk', 'stream',
  'digest', 'schema', 'migration', 'column', 'filter', 'query', 'match', 'score', 'width', 'height', 'depth',
];
const TYPES = ['string', 'number', 'boolean', 'Session', 'NodeRecord', 'readonly string[]', 'Map<string, number>', 'Buffer', 'Options'];
const VERBS = ['load', 'parse', 'read', 'write', 'build', 'resolve', 'update', 'collect', 'merge', 'flush', 'check', 'format', 'render', 'index'];

const CODE_TEMPLATES: readonly ((w: () => string, t: () => string, v: () => string, W: () => string) => string)[] = [
  (w, _t, v) => `  const ${w()}# = ${w()}.${v()}(${w()});`,
  (w) => `  if (${w()}# === undefined) return null;`,
  (w, t, v) => `export function ${v()}${cap(w())}#(${w()}: ${t()}, ${w()}: ${t()}): ${t()} {`,
  (w) => `  for (const ${w()} of ${w()}s#) {`,
  (w) => `    ${w()}.push(${w()}.${w()}#);`,
  () => `  }`,
  () => `}`,
  () => ``,
  (w, _t, v) => `  // ${cap(v())} the ${w()} before the ${w()} is flushed (#).`,
  (w, _t, _v, W) => `import { ${W()}# } from './${w()}-${w()}';`,
  (w) => `  return ${w()}#.map((${w()}) => ${w()}.${w()});`,
  (w, t) => `  readonly ${w()}#: ${t()};`,
  (w, _t, _v, W) => `export interface ${W()}${W()}# {`,
  (w, _t, v) => `    await this.${v()}${cap(w())}(${w()}, { ${w()}: ${w()}# });`,
  (w) => `    throw new ArborError('${w()}_failed', \`${w()} # failed: \${${w()}}\`);`,
  (w, _t, v) => `  ${w()}# = ${w()}# + ${v()}Count(${w()}) * 2;`,
];

const SENTENCES: readonly ((w: () => string, v: () => string) => string)[] = [
  (w, v) => `I need to ${v()} the ${w()} before the ${w()} is written.`,
  (w) => `The ${w()} handling looks off when the ${w()} is empty.`,
  (w, v) => `Let me ${v()} the ${w()} module to see how the ${w()} flows through it.`,
  (w) => `This means the ${w()} and the ${w()} can drift apart under load.`,
  (w, v) => `We should ${v()} each ${w()} once and keep the ${w()} in memory.`,
  (w) => `The test for the ${w()} path fails because the ${w()} is stale.`,
  (w, v) => `Next I'll ${v()} the ${w()} and re-run the ${w()} tests.`,
  (w) => `Good, the ${w()} change is in place; the ${w()} still needs a look.`,
];

const COMMANDS = [
  'npm test', 'npx tsc --noEmit', 'git status', 'git diff --stat', 'npx vitest run test/unit', 'ls -la src',
  'npm run lint', 'git log --oneline -10', 'node scripts/check.mjs', 'cat package.json',
];

function cap(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

export class SyntheticText {
  private readonly codePool: string[] = [];
  private readonly sentencePool: string[] = [];
  private readonly outputPool: string[] = [];
  private counter = 0;

  constructor(private readonly random: Random) {
    const w = () => random.pick(WORDS);
    const t = () => random.pick(TYPES);
    const v = () => random.pick(VERBS);
    const W = () => cap(random.pick(WORDS));
    for (let i = 0; i < 600; i++) this.codePool.push(random.pick(CODE_TEMPLATES)(w, t, v, W));
    for (let i = 0; i < 300; i++) this.sentencePool.push(random.pick(SENTENCES)(w, v));
    for (let i = 0; i < 300; i++) {
      const kind = random.int(0, 3);
      this.outputPool.push(
        kind === 0
          ? ` ✓ test/unit/${w()}/${w()}-${w()}.test.ts (${random.int(1, 40)} tests) ${random.int(2, 900)}ms`
          : kind === 1
            ? `src/${w()}/${w()}.ts(${random.int(1, 400)},${random.int(1, 60)}): error TS2322: Type '${t()}' is not assignable to type '${t()}'.`
            : kind === 2
              ? `[${w()}] ${v()} ${w()} ${random.int(1, 99999)} bytes in ${random.int(1, 500)}ms`
              : `    at ${cap(v())}${W()}.${v()} (src/${w()}/${w()}.ts:${random.int(1, 400)}:${random.int(1, 60)})`,
      );
    }
  }

  /** `count` source lines, each made unique with a running number so Edit old_strings match once. */
  code(count: number): string {
    let out = '';
    for (let i = 0; i < count; i++) out += this.random.pick(this.codePool).replaceAll('#', String(this.counter++)) + '\n';
    return out;
  }

  prose(sentences: number): string {
    const parts: string[] = [];
    for (let i = 0; i < sentences; i++) parts.push(this.random.pick(this.sentencePool));
    return parts.join(' ');
  }

  /** Command output of roughly `bytes` bytes. */
  output(bytes: number): string {
    const lines: string[] = [];
    let size = 0;
    while (size < bytes) {
      const line = this.random.pick(this.outputPool);
      lines.push(line);
      size += line.length + 1;
    }
    return lines.join('\n');
  }

  command(): string {
    return this.random.pick(COMMANDS);
  }

  word(): string {
    return this.random.pick(WORDS);
  }

  /** A thinking-block signature: opaque base64, as the API returns it. */
  signature(): string {
    return `Eq${this.random.base62(this.random.int(200, 900))}==`;
  }
}
