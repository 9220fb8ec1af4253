/**
 * The Codex rollout rules (electron/forks/codex/rollout-rules.ts) over every public rollout under
 * ../shared/corpus/sessions/codex (read from there, never copied). The rollouts Codex itself wrote pass with no
 * finding; the other projects' hand-made fixtures fail exactly where Codex could not resume them, for the
 * reason PROVENANCE.md gives for each (no session_meta, no id, a non-UUID id, a malformed line).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkRollout, type RolloutRule } from '../../../electron/forks/codex/rollout-rules';

const CORPUS = resolve(__dirname, '../../../../shared/corpus/sessions/codex');
const present = existsSync(CORPUS);
if (!present) console.warn(`Codex corpus not found at ${CORPUS}: rollout-rules corpus tests skipped`);

function rollouts(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? rollouts(path) : name.endsWith('.jsonl') ? [path] : [];
  });
}

/** Every corpus file, with the rules it breaks (error or warning); [] is a clean pass. */
const EXPECTED: Record<string, { readonly resumable: boolean; readonly rules: readonly RolloutRule[]; readonly checkName: boolean }> = {
  // Real, CLI 0.125.0 (codex-tui), two whole turns.
  'codemie-code/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl': { resumable: true, rules: [], checkName: true },
  // Real, 0.128.0-alpha.1 (Codex Desktop): no turn_context or task events at all.
  'codemie-code/rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl': { resumable: true, rules: [], checkName: true },
  // Real 0.129.0 captures, renamed by codemie's tests: the content passes, the names are not Codex's.
  'codemie-code/turn-1.jsonl': { resumable: true, rules: [], checkName: false },
  'codemie-code/turn-2.jsonl': { resumable: true, rules: [], checkName: false },
  // Hand-made: `spawn-test-uuid` is not a thread id, no originator; the spawn and wait calls have no output.
  'codemie-code/turn-spawn-skill.jsonl': { resumable: false, rules: ['meta-id', 'meta-fields', 'call-without-output', 'call-without-output'], checkName: false },
  // Synthetic but complete; its future line type is one Codex skips.
  'claude-code-log/sessions/2026/01/02/rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl': { resumable: true, rules: ['skipped-line'], checkName: true },
  // A meta line without timestamp/originator, and a malformed last line.
  'claude-code-log/malformed/rollout-66666666-6666-4666-8666-666666666666.jsonl': { resumable: false, rules: ['meta-fields', 'skipped-line'], checkName: false },
  // session_meta without id or cwd; a turn_context without cwd.
  'claude-code-log/sample-session.jsonl': { resumable: false, rules: ['meta-id', 'meta-fields', 'turn-context'], checkName: false },
  // No session_meta at all (a token-count fixture).
  'ccusage/session-alpha.jsonl': { resumable: false, rules: ['first-line', 'turn-context'], checkName: false },
};

describe.skipIf(!present)('Codex rollout rules over the corpus', () => {
  it('covers every rollout in the corpus', () => {
    expect(rollouts(CORPUS).map((path) => relative(CORPUS, path)).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const [file, expected] of Object.entries(EXPECTED)) {
    it(`${file}: ${expected.resumable ? 'resumable' : 'not resumable'}${expected.rules.length > 0 ? ` (${expected.rules.join(', ')})` : ', no finding'}`, () => {
      const path = join(CORPUS, file);
      const verdict = checkRollout(readFileSync(path, 'utf8'), expected.checkName ? { fileName: basename(path) } : {});
      expect(verdict.findings.map((finding) => finding.rule)).toEqual(expected.rules);
      expect(verdict.resumable).toBe(expected.resumable);
      for (const finding of verdict.findings) expect(finding.reason.length).toBeGreaterThan(10);
      if (expected.resumable) expect(verdict.threadId).toMatch(/^[0-9a-f-]{36}$/);
    });
  }

  it('a real rollout names its thread in its file name, as `codex resume <id>` finds it', () => {
    const file = 'codemie-code/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl';
    const verdict = checkRollout(readFileSync(join(CORPUS, file), 'utf8'), { fileName: 'rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb800.jsonl' });
    expect(verdict.findings.map((finding) => [finding.rule, finding.severity])).toEqual([['file-name', 'error']]);
    expect(verdict.findings[0]!.reason).toContain('codex resume 019e1625-789d-76c0-80ab-3724b5ddb799');
  });
});
