import { useMemo, useState } from 'react';
import { buildFileTree, type FileLeaf, type FolderNode } from './file-tree';
import type { NodeFileEntry } from '../../../shared/model';
import { FileStatusMark } from './FileStatusMark';
import { formatBytes } from './format-bytes';
import { UnknownFileMark, type UnknownWhy } from './UnknownFileMark';

/** Says, in a sentence, why a file's content is not known (NodeFilesView knows the steps' labels). */
export type DescribeUnknown = (why: UnknownWhy) => string;

/** Small trees open fully; big ones open their first level and the folders holding changed files. */
const OPEN_ALL_BELOW = 200;
/** A folder with thousands of files draws this many, then offers the rest. */
const FOLDER_PAGE = 300;

function initiallyOpen(tree: FolderNode): Set<string> {
  const open = new Set<string>(['']);
  const visit = (folder: FolderNode) => {
    for (const child of folder.children) {
      if (child.type !== 'folder') continue;
      if (tree.count <= OPEN_ALL_BELOW || child.changed > 0) open.add(child.relative);
      visit(child);
    }
  };
  visit(tree);
  return open;
}

export function FileTree({
  files,
  root,
  onOpen,
  describeUnknown,
}: {
  readonly files: readonly NodeFileEntry[];
  readonly root: string;
  readonly onOpen: (file: FileLeaf) => void;
  readonly describeUnknown: DescribeUnknown;
}) {
  const tree = useMemo(() => buildFileTree(files, root), [files, root]);
  const [open, setOpen] = useState(() => initiallyOpen(tree));
  const toggle = (relative: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(relative)) next.add(relative);
      return next;
    });
  return (
    <ul className="file-tree" role="tree" data-testid="file-tree">
      <FolderChildren folder={tree} open={open} depth={0} onToggle={toggle} onOpen={onOpen} describeUnknown={describeUnknown} />
    </ul>
  );
}

function FolderChildren({
  folder,
  open,
  depth,
  onToggle,
  onOpen,
  describeUnknown,
}: {
  readonly folder: FolderNode;
  readonly open: ReadonlySet<string>;
  readonly depth: number;
  readonly onToggle: (relative: string) => void;
  readonly onOpen: (file: FileLeaf) => void;
  readonly describeUnknown: DescribeUnknown;
}) {
  const [limit, setLimit] = useState(FOLDER_PAGE);
  const shown = folder.children.slice(0, limit);
  const indent = { paddingLeft: `${8 + depth * 14}px` };
  return (
    <>
      {shown.map((child) =>
        child.type === 'folder' ? (
          <li key={`d:${child.name}`} role="treeitem" aria-expanded={open.has(child.relative)}>
            <button type="button" className="file-row file-row--folder" style={indent} onClick={() => onToggle(child.relative)}>
              <span className="file-row__chevron" aria-hidden="true">
                {open.has(child.relative) ? '▾' : '▸'}
              </span>
              <span className="file-row__name">{child.name}/</span>
              <span className="file-row__count">{folderCount(child)}</span>
            </button>
            {open.has(child.relative) ? (
              <ul role="group">
                <FolderChildren folder={child} open={open} depth={depth + 1} onToggle={onToggle} onOpen={onOpen} describeUnknown={describeUnknown} />
              </ul>
            ) : null}
          </li>
        ) : (
          <li key={`f:${child.name}`} role="treeitem">
            <FileRow file={child} indent={indent} onOpen={onOpen} describeUnknown={describeUnknown} />
          </li>
        ),
      )}
      {folder.children.length > limit ? (
        <li>
          <button type="button" className="link-button file-tree__more" style={indent} onClick={() => setLimit((n) => n + FOLDER_PAGE * 4)}>
            Show {Math.min(folder.children.length - limit, FOLDER_PAGE * 4)} more of {folder.children.length - limit}
          </button>
        </li>
      ) : null}
    </>
  );
}

function FileRow({
  file,
  indent,
  onOpen,
  describeUnknown,
}: {
  readonly file: FileLeaf;
  readonly indent: { readonly paddingLeft: string };
  readonly onOpen: (file: FileLeaf) => void;
  readonly describeUnknown: DescribeUnknown;
}) {
  const unknown = file.unknown ? describeUnknown(file.unknown) : null;
  return (
    <button
      type="button"
      className={`file-row${file.status ? ` is-${file.status}` : ''}${unknown !== null ? ' is-unknown' : ''}`}
      style={indent}
      data-testid="tree-file"
      data-path={file.relative}
      data-known={unknown !== null ? 'unknown' : 'known'}
      onClick={() => onOpen(file)}
      title={unknown !== null ? `${file.relative} — ${unknown}` : file.relative}
    >
      <FileStatusMark status={file.status} />
      {unknown !== null ? <UnknownFileMark description={unknown} /> : null}
      <span className="file-row__name">{file.name}</span>
      {file.size !== undefined ? <span className="file-row__size">{formatBytes(file.size)}</span> : null}
    </button>
  );
}

/** "2 changed · 1 not known · 14": what a closed folder holds that its rows would mark. */
function folderCount(folder: FolderNode): string {
  const parts = [folder.changed > 0 ? `${folder.changed} changed` : '', folder.unknown > 0 ? `${folder.unknown} not known` : '', String(folder.count)];
  return parts.filter(Boolean).join(' · ');
}
