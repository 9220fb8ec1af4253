/** Every `arbor` command, in the order `arbor --help` lists them. Add a command: one file here, one line below. */
import type { CliCommand } from '../command';
import { catCommand } from './cat';
import { deleteCommand } from './delete';
import { demoCommand } from './demo';
import { diffCommand } from './diff';
import { doctorCommand } from './doctor';
import { effectsCommand } from './effects';
import { exportCommand } from './export';
import { exportArchiveCommand } from './export-archive';
import { filesCommand } from './files';
import { forkCommand } from './fork';
import { forksCommand } from './forks';
import { gcCommand } from './gc';
import { hookCommand } from './hook';
import { importCommand } from './import';
import { importArchiveCommand } from './import-archive';
import { lineageCommand } from './lineage';
import { lsCommand } from './ls';
import { continueMergeCommand } from './continue-merge';
import { mergeCommand } from './merge';
import { mergeFileCommand } from './merge-file';
import { operationsCommand } from './operations';
import { pricesCommand } from './prices';
import { rewindCommand } from './rewind';
import { serveCommand } from './serve';
import { searchCommand } from './search';
import { showCommand } from './show';
import { snapshotCommand } from './snapshot';
import { statsCommand } from './stats';
import { treeCommand } from './tree';
import { undoCommand } from './undo';
import { watchCommand } from './watch';

export const COMMANDS: readonly CliCommand[] = [
  importCommand,
  lsCommand,
  showCommand,
  treeCommand,
  lineageCommand,
  filesCommand,
  catCommand,
  diffCommand,
  exportCommand,
  effectsCommand,
  snapshotCommand,
  rewindCommand,
  undoCommand,
  operationsCommand,
  forkCommand,
  forksCommand,
  deleteCommand,
  gcCommand,
  exportArchiveCommand,
  importArchiveCommand,
  hookCommand,
  watchCommand,
  searchCommand,
  statsCommand,
  pricesCommand,
  mergeCommand,
  continueMergeCommand,
  mergeFileCommand,
  serveCommand,
  demoCommand,
  doctorCommand,
];

export function findCommand(name: string): CliCommand | undefined {
  return COMMANDS.find((command) => command.name === name);
}
