/**
 * Child process of index-in-worker.test.ts (not a test): imports `argv[3]` into the store `argv[2]` through the
 * write worker, lets the worker index, and SIGKILLs itself at the first indexing progress it hears of. The kill
 * is the point: no close, no finally, as when the OOM killer or a power cut ends the app mid-index.
 */
import { startImportWorkerHost } from '../../../electron/service/import-worker-host';

async function main(): Promise<void> {
  const [storeFile, projects] = process.argv.slice(2);
  if (storeFile === undefined || projects === undefined) throw new Error('usage: index-in-worker-crash-child STORE PROJECTS');
  const host = startImportWorkerHost(storeFile, {
    indexChunkRows: 1000,
    onIndexProgress: ({ done, total }) => {
      if (done === 0 || done >= total) return;
      process.stdout.write(`killed at ${done} of ${total}\n`);
      process.kill(process.pid, 'SIGKILL');
    },
  });
  await host.run([projects], { jobId: 'crash' });
  // The worker kicks its indexer after the import; waiting for it keeps this process alive until the kill.
  await host.indexer.idle();
  process.stdout.write('indexing finished before the kill\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
