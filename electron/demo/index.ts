/** Arbor's own transcript generator: the demo session and synthetic benchmark corpora. */
export { createDemo } from './create-demo';
export type { CreateDemoOptions, DemoCreated } from './create-demo';
export { encodeProjectDir, syntheticSessionLines, writeSyntheticCorpus } from './synthetic';
export type { SyntheticCorpus, SyntheticCorpusOptions, SyntheticSessionOptions } from './synthetic';
