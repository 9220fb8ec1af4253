/** The service hosts build (Electron main, `arbor serve`, the CLI): the store plus the Claude Code reader. */
import { createDemo } from '../demo/create-demo';
import {
  defaultClaudeLocations,
  discoverClaudeTranscripts,
  parseClaudeTranscript,
  readNodeContent,
  resultLabelWithToolName,
} from '../importers/claude-code';
import { startParseWorker } from '../importers/worker/parse-worker';
import type { TranscriptReader } from './import-sessions';
import { createServiceWith } from './service-core';
import type { ArborService, ArborServiceOptions } from './service-types';

export const claudeCodeReader: TranscriptReader = {
  discover: (paths, options) => discoverClaudeTranscripts([...paths], options),
  parse: (file, sink, options) => parseClaudeTranscript(file, sink, options),
  startWorker: startParseWorker,
  relabelResult: (node, toolName) => (node.unnamedResultOf === undefined ? null : resultLabelWithToolName(node.raw, node.unnamedResultOf, toolName)),
};

export function createArborService(options: ArborServiceOptions): Promise<ArborService> {
  return createServiceWith(options, {
    reader: claudeCodeReader,
    readNodeContent,
    defaultLocations: defaultClaudeLocations,
    createDemo,
  });
}
