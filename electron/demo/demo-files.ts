/** The demo workspace as first committed: a tiny TypeScript word counter ("tally"). */

export const IGNORED_FILES: ReadonlyMap<string, string> = new Map([
  ['debug.log', 'tally: read 1843 bytes from README.md\ntally: 212 words, 97 distinct\n'],
]);

export const INITIAL_FILES: ReadonlyMap<string, string> = new Map([
  [
    'package.json',
    `{
  "name": "tally",
  "version": "0.1.0",
  "description": "Count the words in a text file.",
  "type": "module",
  "bin": { "tally": "dist/index.js" },
  "scripts": {
    "build": "tsc",
    "test": "node --test dist/"
  },
  "devDependencies": {
    "typescript": "^5.6.0"
  }
}
`,
  ],
  ['.gitignore', 'node_modules/\ndist/\n*.log\n.env\n'],
  [
    'README.md',
    `# tally

Counts the words in a text file and prints them, most frequent first.

## Usage

\`\`\`sh
npm run build
node dist/index.js notes.txt
\`\`\`
`,
  ],
  [
    'tsconfig.json',
    `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "NodeNext",
    "strict": true,
    "outDir": "dist"
  },
  "include": ["src"]
}
`,
  ],
  [
    'src/count.ts',
    `/** Splits text into lowercase words and counts each one. */
export function countWords(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of text.toLowerCase().split(/[^a-z0-9']+/)) {
    if (word === '') continue;
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return counts;
}

/** Words sorted by count, most frequent first; ties in alphabetical order. */
export function sortByCount(counts: Map<string, number>): [string, number][] {
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}
`,
  ],
  [
    'src/format.ts',
    `/** One line per word: the count right-aligned, then the word. */
export function formatCounts(entries: [string, number][]): string {
  const width = Math.max(1, ...entries.map(([, n]) => String(n).length));
  return entries.map(([word, n]) => \`\${String(n).padStart(width)} \${word}\`).join('\\n');
}
`,
  ],
  [
    'src/index.ts',
    `#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { countWords, sortByCount } from './count.js';
import { formatCounts } from './format.js';

function main(argv: string[]): number {
  const file = argv[0];
  if (!file) {
    console.error('usage: tally <file>');
    return 2;
  }
  const counts = countWords(readFileSync(file, 'utf8'));
  console.log(formatCounts(sortByCount(counts)));
  return 0;
}

process.exitCode = main(process.argv.slice(2));
`,
  ],
]);
