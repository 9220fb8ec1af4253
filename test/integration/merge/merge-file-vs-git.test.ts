/**
 * Differential test: our merge engine against real `git merge-file`, on generated triples (repeated
 * lines, edits close together, missing final newlines, empty files, CRLF), large heavily edited
 * ones, and real ones cut from source files in node_modules.
 * Targets (issue 4): identical output on ≥ 99% of the triples git merges cleanly, and the same
 * clean/conflict verdict on ≥ 99% of all triples. ARBOR_MERGE_DIFF_SCALE=10 runs ten times as many
 * (and adds --zdiff3).
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeText, type MergeStyle } from '../../../shared/merge';
import { gitAvailable, gitMergeAll } from './git-merge-file';
import { generatedTriples, heavyTriples, realTriples, type MergeTriple } from './triples';

const repoRoot = resolve(import.meta.dirname, '../../..');
const scale = Math.max(1, Number(process.env.ARBOR_MERGE_DIFF_SCALE ?? 1));
const hasGit = gitAvailable();
if (!hasGit) console.warn('merge-file-vs-git: git is not installed, skipping the differential test');

interface Agreement {
  readonly total: number;
  readonly sameVerdict: number;
  readonly gitClean: number;
  readonly sameWhenClean: number;
  readonly sameOutput: number;
  readonly sameConflictCount: number;
  readonly mismatches: readonly string[];
}

function compare(triples: readonly MergeTriple[], style: MergeStyle, git: readonly { text: string; status: number }[]): Agreement {
  let sameVerdict = 0;
  let gitClean = 0;
  let sameWhenClean = 0;
  let sameOutput = 0;
  let sameConflictCount = 0;
  const mismatches: string[] = [];
  triples.forEach((triple, i) => {
    const expected = git[i] as { text: string; status: number };
    const actual = mergeText(triple.base, triple.ours, triple.theirs, { style });
    const same = actual.text === expected.text;
    if ((expected.status === 0) === (actual.conflicts === 0)) sameVerdict++;
    if (Math.min(actual.conflicts, 127) === expected.status) sameConflictCount++;
    if (expected.status === 0) {
      gitClean++;
      if (same) sameWhenClean++;
    }
    if (same) sameOutput++;
    else mismatches.push(`${triple.name} (git ${expected.status} conflicts, ours ${actual.conflicts})`);
  });
  return { total: triples.length, sameVerdict, gitClean, sameWhenClean, sameOutput, sameConflictCount, mismatches };
}

const percent = (part: number, whole: number): string => `${((100 * part) / Math.max(1, whole)).toFixed(1)}%`;

describe.skipIf(!hasGit)('arbor merge engine vs git merge-file', () => {
  it('agrees with git on generated and real triples', async () => {
    const triples = [
      ...generatedTriples(200 * scale, 1),
      ...heavyTriples(3 * scale, 11),
      ...realTriples(repoRoot, 50 * scale, 7),
    ];
    const realCount = triples.filter((t) => t.name.startsWith('real-')).length;
    if (realCount === 0) console.warn('merge-file-vs-git: no node_modules sources found, real triples skipped');
    // zdiff3 only in the long run: every git process costs ~10 ms and npm test should stay quick.
    const styles: MergeStyle[] = scale > 1 ? ['merge', 'diff3', 'zdiff3'] : ['merge', 'diff3'];
    const git = await gitMergeAll(triples, styles);

    for (const style of styles) {
      const result = compare(triples, style, git.get(style) ?? []);
      console.log(
        `merge-file vs git (${style}): ${result.total} triples (${realCount} real); ` +
          `same verdict ${percent(result.sameVerdict, result.total)}, ` +
          `identical when git is clean ${percent(result.sameWhenClean, result.gitClean)} of ${result.gitClean}, ` +
          `identical overall ${percent(result.sameOutput, result.total)}, ` +
          `same conflict count ${percent(result.sameConflictCount, result.total)}`,
      );
      if (result.mismatches.length > 0) console.log(`  differing: ${result.mismatches.slice(0, 10).join('; ')}`);
      expect(result.gitClean).toBeGreaterThan(result.total / 10);
      expect(result.sameWhenClean / result.gitClean).toBeGreaterThanOrEqual(0.99);
      expect(result.sameVerdict / result.total).toBeGreaterThanOrEqual(0.99);
    }
  }, 60_000 * scale);
});
