/**
 * Child process of crash.test.ts (not a test): applies the plan in `argv[3]` to its workspace with the engine
 * on the data folder `argv[2]`, and SIGKILLs itself at crash point number ARBOR_TEST_CRASH_AT (counting every
 * point of every write: before the rename, after it, after its outcome is journaled). The kill is the point:
 * no `finally`, no flush, no close runs, exactly as when the power cable or the OOM killer ends a process.
 */
import { readFileSync } from 'node:fs';
import type { OperationPlan } from '../../../electron/operations/operation-types';
import { openEngine } from './operation-fixture';

async function main(): Promise<void> {
  const [dataDir, planFile] = process.argv.slice(2);
  if (dataDir === undefined || planFile === undefined) throw new Error('usage: crash-child DATA_DIR PLAN_JSON');
  const crashAt = Number(process.env.ARBOR_TEST_CRASH_AT ?? '-1');
  let point = 0;
  const engine = openEngine(dataDir, {
    onCrashPoint: (at) => {
      if (point++ !== crashAt) return;
      // Named for the test's messages, then killed.
      process.stderr.write(`${at.phase} of write ${at.seq}\n`);
      process.kill(process.pid, 'SIGKILL');
    },
  });
  const plan = JSON.parse(readFileSync(planFile, 'utf8')) as OperationPlan;
  const outcome = await engine.runner.apply(plan);
  engine.close();
  process.stdout.write(`${JSON.stringify(outcome)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
