/** The service hosts build (Electron main, `arbor serve`, the CLI): the store plus the Claude Code reader. */
import { createDemo } from '../demo/create-demo';
import { defaultClaudeLocations, readNodeContent } from '../importers/claude-code';
import { claudeCodeReader } from './claude-code-reader';
import { startImportWorkerHost } from './import-worker-host';
import { createServiceWith } from './service-core';
import type { ArborService, ArborServiceOptions } from './service-types';

export { claudeCodeReader } from './claude-code-reader';

export function createArborService(options: ArborServiceOptions): Promise<ArborService> {
  return createServiceWith(options, {
    reader: claudeCodeReader,
    readNodeContent,
    defaultLocations: defaultClaudeLocations,
    createDemo,
    // Imports store from a worker thread with its own connection: requests are answered while it writes.
    startImportWorker: startImportWorkerHost,
  });
}
