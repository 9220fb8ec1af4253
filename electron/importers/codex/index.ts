/** The Codex CLI importer (FORMATS.md §2): rollouts found by content, parsed linearly, read back for the inspector. */
export { parseCodexRollout, threadIdFromName, type CodexParseOptions } from './parse-rollout';
export { readCodexNodeContent } from './node-content';
export { codexSearchText } from './search-text';
export { defaultCodexLocations, isRolloutFileName } from './locations';
export { isRolloutLine, rolloutThreadId } from './claims';
export { headLineage } from './lineage';
