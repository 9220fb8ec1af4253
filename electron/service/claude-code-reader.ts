/**
 * Claude Code's transcript reader as the import sees it. Its own file so the write worker
 * (import-write-worker.ts) can import it without pulling in the whole service.
 */
import {
  discoverClaudeTranscripts,
  parseClaudeTranscript,
  resultLabelWithToolName,
} from '../importers/claude-code';
import { startParseWorker } from '../importers/worker/parse-worker';
import type { TranscriptReader } from './import-sessions';

export const claudeCodeReader: TranscriptReader = {
  discover: (paths, options) => discoverClaudeTranscripts([...paths], options),
  parse: (file, sink, options) => parseClaudeTranscript(file, sink, options),
  startWorker: startParseWorker,
  relabelResult: (node, toolName) => (node.unnamedResultOf === undefined ? null : resultLabelWithToolName(node.raw, node.unnamedResultOf, toolName)),
};
