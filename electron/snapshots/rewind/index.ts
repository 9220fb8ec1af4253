/**
 * Rewind planning (DESIGN.md "Rules that protect the user's files"): which workspace files a rewind to a
 * node writes, creates and deletes, which it leaves alone and why. The operation engine
 * (electron/operations/) applies the plan; the service (rewind-methods.ts) ties the two together.
 */
export { planExactRewind, planReconstructedRewind, replayIsStale, workspacePath, type TouchedFiles } from './plan-sources';
export { planChanges, planToken, differingPaths, changesOf, type RewindPlan, type TargetFile, type PlanOptions } from './rewind-plan';
