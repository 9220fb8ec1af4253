// Lint enforces the house's layering (STYLE.md): a file's path says where it runs and what it may import.
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

const NODE_BUILTINS = [
  'assert', 'buffer', 'child_process', 'crypto', 'events', 'fs', 'fs/promises', 'http', 'https', 'net', 'os', 'path',
  'process', 'readline', 'stream', 'url', 'util', 'worker_threads', 'zlib',
];
const nodeOnly = [{ group: ['node:*'], message: 'Node built-ins run only in electron/ (the main side).' }];
const nodeBuiltinPaths = NODE_BUILTINS.map((name) => ({ name, message: 'Node built-ins run only in electron/.' }));
const electronOnlyInEntries = { name: 'electron', message: "Only electron/main.ts, electron/preload.ts and electron/app/ import 'electron'." };
const sqliteOnlyInDb = { name: 'better-sqlite3', message: 'Only electron/db/ imports better-sqlite3.' };
const isoGitOnlyInGit = { name: 'isomorphic-git', message: 'Only electron/git/ imports isomorphic-git.' };

export default tseslint.config(
  { ignores: ['out/**', 'release/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '**/*.cjs', '.tmp/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-imports': ['error', { paths: [electronOnlyInEntries, sqliteOnlyInDb, isoGitOnlyInGit] }],
    },
  },
  {
    files: ['shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronOnlyInEntries, sqliteOnlyInDb, isoGitOnlyInGit, ...nodeBuiltinPaths],
          patterns: [
            ...nodeOnly,
            { group: ['**/electron/**', '**/renderer/**'], message: 'shared/ imports nothing but shared/.' },
            { group: ['react', 'react-dom', 'zustand', '@xyflow/*', 'ws'], message: 'shared/ is pure TypeScript.' },
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/**'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-imports': [
        'error',
        {
          paths: [electronOnlyInEntries, sqliteOnlyInDb, isoGitOnlyInGit, ...nodeBuiltinPaths, { name: 'ws', message: 'The renderer uses the browser WebSocket.' }],
          patterns: [...nodeOnly, { group: ['**/electron/**'], message: 'The renderer reaches the main side only through renderer/src/client.' }],
        },
      ],
    },
  },
  {
    files: ['electron/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronOnlyInEntries, sqliteOnlyInDb, isoGitOnlyInGit],
          patterns: [{ group: ['**/renderer/**'], message: 'electron/ never imports the renderer.' }],
        },
      ],
    },
  },
  {
    files: ['electron/main.ts', 'electron/preload.ts', 'electron/app/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [sqliteOnlyInDb, isoGitOnlyInGit], patterns: [{ group: ['**/renderer/**'], message: 'electron/ never imports the renderer.' }] }],
    },
  },
  {
    files: ['electron/db/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [electronOnlyInEntries, isoGitOnlyInGit], patterns: [{ group: ['**/renderer/**'], message: 'electron/ never imports the renderer.' }] }],
    },
  },
  {
    files: ['electron/git/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [electronOnlyInEntries, sqliteOnlyInDb], patterns: [{ group: ['**/renderer/**'], message: 'electron/ never imports the renderer.' }] }],
    },
  },
  {
    // Tests may reach everything, including the fake 'electron' module; the layering rules are for product code.
    files: ['test/**', 'scripts/**', '*.config.*'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
