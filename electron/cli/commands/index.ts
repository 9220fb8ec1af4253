/** Every `arbor` command, in the order `arbor --help` lists them. Add a command: one file here, one line below. */
import type { CliCommand } from '../command';
import { demoCommand } from './demo';
import { diffCommand } from './diff';
import { filesCommand } from './files';
import { importCommand } from './import';
import { lsCommand } from './ls';
import { mergeFileCommand } from './merge-file';
import { serveCommand } from './serve';
import { searchCommand } from './search';
import { showCommand } from './show';
import { snapshotCommand } from './snapshot';
import { treeCommand } from './tree';

export const COMMANDS: readonly CliCommand[] = [
  importCommand,
  lsCommand,
  showCommand,
  treeCommand,
  filesCommand,
  diffCommand,
  snapshotCommand,
  searchCommand,
  mergeFileCommand,
  serveCommand,
  demoCommand,
];

export function findCommand(name: string): CliCommand | undefined {
  return COMMANDS.find((command) => command.name === name);
}
