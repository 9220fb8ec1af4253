/** The service hosts build (Electron main, `arbor serve`, the CLI): the store plus the Claude Code reader. */
import { createDemo } from '../demo/create-demo';
import { resultLabelWithToolName } from '../importers/claude-code';
import { defaultTranscriptLocations, discoverTranscripts, formatOfLocation, parseTranscript, readAnyNodeContent } from '../importers/registry';
import { startParseWorker } from '../importers/worker/parse-worker';
import type { TranscriptReader } from './import-sessions';
import { createServiceWith } from './service-core';
import type { ArborService, ArborServiceOptions } from './service-types';

export const claudeCodeReader: TranscriptReader = {
  discover: (paths, options) => discoverTranscripts([...paths], options),
  parse: (file, sink, options) => parseTranscript(file, sink, options),
  startWorker: startParseWorker,
  relabelResult: (node, toolName) => (node.unnamedResultOf === undefined ? null : resultLabelWithToolName(node.raw, node.unnamedResultOf, toolName)),
};

export function createArborService(options: ArborServiceOptions): Promise<ArborService> {
  return createServiceWith(options, {
    reader: claudeCodeReader,
    readNodeContent: readAnyNodeContent,
    defaultLocations: defaultTranscriptLocations,
    formatOfLocation,
    createDemo,
  });
}
