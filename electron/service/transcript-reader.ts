/**
 * The transcript reader as the import sees it: every registered format (Claude Code, Codex) through the
 * importer registry. Its own file so the write worker (import-write-worker.ts) can import it without
 * pulling in the whole service.
 */
import { resultLabelWithToolName } from '../importers/claude-code';
import { discoverTranscripts, parseTranscript } from '../importers/registry';
import { startParseWorker } from '../importers/worker/parse-worker';
import type { TranscriptReader } from './import-sessions';

export const transcriptReader: TranscriptReader = {
  discover: (paths, options) => discoverTranscripts([...paths], options),
  parse: (file, sink, options) => parseTranscript(file, sink, options),
  startWorker: startParseWorker,
  relabelResult: (node, toolName) => (node.unnamedResultOf === undefined ? null : resultLabelWithToolName(node.raw, node.unnamedResultOf, toolName)),
};
