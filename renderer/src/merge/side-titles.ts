/**
 * What the merge view calls each of its versions: ours, theirs, the base and the result. A side is a node's
 * recorded state ("Node 3f2a9c1 · Add --json") or a fork folder's files as they are now ("Folder … — current
 * contents"). Two forks of the same prompt carry the same label, so titles lead with what tells them apart
 * (short id, folder name) and are made distinct when they would still read the same.
 */
import type { MergePreview, MergeSide } from '../../../shared/operations';

export type TitledVersion = 'ours' | 'theirs' | 'base' | 'result';

export interface VersionTitle {
  /** "Ours", "Theirs", "Base", "Result". */
  readonly role: string;
  /** What the version is, in one line. */
  readonly title: string;
  /** The same, short enough for a chip in the header: the folder or the node, without the rest. */
  readonly short: string;
  /** Where it comes from (session, node), or null. */
  readonly detail: string | null;
  /** The full story for a tooltip: full path, full label, node id. */
  readonly tooltip: string;
}

export type MergeTitles = Readonly<Record<TitledVersion, VersionTitle>>;

const WORDS_MAX = 48;
/** Fits a pane's title at the usual three-pane width, with room left for "— current contents". */
const FOLDER_MAX = 20;

/** The id as the graph's cards show it: without Arbor's `snapshot-` prefix, 7 characters. */
export function shortNodeId(nodeId: string): string {
  return nodeId.replace(/^(snapshot|fork|merge|hook)-/, '').slice(0, 7);
}

/** The start of a prompt or step, cut at a word. */
export function firstWords(text: string, max: number = WORDS_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

export function folderName(dir: string): string {
  return dir.replace(/[\\/]+$/, '').split(/[\\/]/).pop() || dir;
}

/** Fork folders are named date first, so a long name is cut in the middle: its end is what differs. */
function shortFolder(name: string): string {
  if (name.length <= FOLDER_MAX) return name;
  const keep = Math.floor((FOLDER_MAX - 1) / 2);
  return `${name.slice(0, keep)}…${name.slice(-keep)}`;
}

function parentFolder(dir: string): string | null {
  const parts = dir.replace(/[\\/]+$/, '').split(/[\\/]/);
  return parts.length >= 2 ? (parts[parts.length - 2] ?? null) || null : null;
}

function sessionDetail(side: MergeSide): string | null {
  return side.sessionTitle === null || side.sessionTitle === '' ? null : `session “${firstWords(side.sessionTitle, 60)}”`;
}

/** How much of a folder a title names: its name (cut in the middle when long), all of it, or its parent too. */
type FolderNaming = 'short' | 'full' | 'parent';

function sideTitle(role: string, side: MergeSide, naming: FolderNaming): VersionTitle {
  const id = shortNodeId(side.nodeId);
  const session = sessionDetail(side);
  if (side.dir !== null) {
    const parent = naming === 'parent' ? parentFolder(side.dir) : null;
    const name = naming === 'short' ? shortFolder(folderName(side.dir)) : folderName(side.dir);
    const folder = parent === null ? name : `${parent}/${name}`;
    return {
      role,
      title: `Folder ${folder} — current contents`,
      short: `Folder ${folder}`,
      detail: [`node ${id}`, session].filter((part) => part !== null).join(' · '),
      tooltip: [side.dir, `the folder's files as they are now, from node ${side.nodeId}`, side.sessionTitle ?? null].filter((part) => part !== null).join('\n'),
    };
  }
  return {
    role,
    title: `Node ${id} · ${firstWords(side.label)}`,
    short: `Node ${id} · ${firstWords(side.label, 24)}`,
    detail: session,
    tooltip: [side.label, `the state recorded at node ${side.nodeId}`, side.sessionTitle].filter((part) => part !== null).join('\n'),
  };
}

/** The four titles of a merge; ours' and theirs' never read the same. */
export function mergeTitles(preview: Pick<MergePreview, 'ours' | 'theirs' | 'base' | 'baseLabel' | 'into'>): MergeTitles {
  let ours = sideTitle('Ours', preview.ours, 'short');
  let theirs = sideTitle('Theirs', preview.theirs, 'short');
  // Names alike once cut: the whole names; the same name under different parents: the parents too.
  for (const naming of ['full', 'parent'] as const) {
    if (ours.title !== theirs.title) break;
    ours = sideTitle('Ours', preview.ours, naming);
    theirs = sideTitle('Theirs', preview.theirs, naming);
  }
  if (ours.title === theirs.title) {
    // Still alike (the same folder twice): the node ids tell them apart.
    const sameShort = shortNodeId(preview.ours.nodeId) === shortNodeId(preview.theirs.nodeId);
    const id = (side: MergeSide) => (sameShort ? side.nodeId : `node ${shortNodeId(side.nodeId)}`);
    ours = { ...ours, title: `${ours.title} · ${id(preview.ours)}`, short: `${ours.short} · ${id(preview.ours)}` };
    theirs = { ...theirs, title: `${theirs.title} · ${id(preview.theirs)}`, short: `${theirs.short} · ${id(preview.theirs)}` };
  }
  const base: VersionTitle =
    preview.base === null
      ? { role: 'Base', title: 'No common ancestor', short: 'No common ancestor', detail: 'empty base', tooltip: 'The two nodes share no ancestor: every file counts as new on both sides.' }
      : {
          role: 'Base',
          title: `Common ancestor · node ${shortNodeId(preview.base)}${preview.baseLabel === null ? '' : ` · ${firstWords(preview.baseLabel)}`}`,
          // Its chip in the header already says "base".
          short: `node ${shortNodeId(preview.base)}`,
          detail: 'the fork point',
          tooltip: [preview.baseLabel, `the state recorded at node ${preview.base}, where the two branches part`].filter((part) => part !== null).join('\n'),
        };
  const result: VersionTitle = {
    role: 'Result',
    title: `Into folder ${shortFolder(folderName(preview.into))}`,
    short: `Into folder ${shortFolder(folderName(preview.into))}`,
    detail: 'editable',
    tooltip: `${preview.into}\nApply writes this text into the folder; until then nothing changes on disk.`,
  };
  return { ours, theirs, base, result };
}
