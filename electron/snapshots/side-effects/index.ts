/**
 * Side effects (DESIGN.md "side effect"): what steps did outside the workspace, which no rewind or fork can
 * take back. Classified conservatively from tool names and shell commands; 'unknown' when unsure.
 */
export { classifyShellCommand, type ShellContext } from './classify-command';
export { classifyStepCall, classifyToolCall, isLocalTool, summarizeCall } from './classify-call';
export { claudeStepCalls, sideEffectsSince, type ReadLine, type StepsSinceOptions } from './steps-since';
export { parseShell, type ParsedShell, type SimpleCommand } from './shell-parse';
export { commandOfCall, ledgerBuilder, stepParents, type LedgerBuilder, type LedgerCall, type LedgerOptions, type LedgerStep } from './ledger';
export { canonicalJson, REPLAY_RULES, shellReplayKeys, toolReplayKeys, type ReplayKey, type ReplayRule } from './replay-rules';
