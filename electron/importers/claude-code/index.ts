/** The Claude Code importer (FORMATS.md §1): discover transcripts, parse them into nodes, read node content. */
export { defaultClaudeLocations, discoverClaudeTranscripts, classifyTranscriptPath, type DiscoveredTranscripts } from './discover';
export { parseClaudeTranscript, type ClaudeParseOptions } from './parse-transcript';
export { claudeSearchText } from './search-text';
export { resultLabelWithToolName } from './entry-summary';
export { readNodeContent, readToolResults, readToolUseResult, sanitize, type NodeContent } from './node-content';
export { toolCallLabel, toolResultLabel, SPAWN_TOOLS } from './tool-labels';
export { LABEL_LIMIT, SEARCH_TEXT_LIMIT } from './label-text';
