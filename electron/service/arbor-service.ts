/** The service hosts build (Electron main, `arbor serve`, the CLI): the store plus the Claude Code reader. */
import { createDemo } from '../demo/create-demo';
import { defaultTranscriptLocations, formatOfLocation, readAnyNodeContent } from '../importers/registry';
import { transcriptReader } from './transcript-reader';
import { startImportWorkerHost } from './import-worker-host';
import { createServiceWith } from './service-core';
import type { ArborService, ArborServiceOptions } from './service-types';

export { transcriptReader } from './transcript-reader';

export function createArborService(options: ArborServiceOptions): Promise<ArborService> {
  return createServiceWith(options, {
    reader: transcriptReader,
    readNodeContent: readAnyNodeContent,
    defaultLocations: defaultTranscriptLocations,
    formatOfLocation,
    createDemo,
    // Imports store from a worker thread with its own connection: requests are answered while it writes.
    startImportWorker: startImportWorkerHost,
  });
}
