import { useMemo, useState } from 'react';
import { buildFileTree, type FileLeaf, type FolderNode } from './file-tree';
import type { NodeFileEntry } from '../../../shared/model';
import { FileStatusMark } from './FileStatusMark';

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

export function FileTree({ files, root, onOpen }: { readonly files: readonly NodeFileEntry[]; readonly root: string; readonly onOpen: (file: FileLeaf) => void }) {
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
      <FolderChildren folder={tree} open={open} depth={0} onToggle={toggle} onOpen={onOpen} />
    </ul>
  );
}

function FolderChildren({
  folder,
  open,
  depth,
  onToggle,
  onOpen,
}: {
  readonly folder: FolderNode;
  readonly open: ReadonlySet<string>;
  readonly depth: number;
  readonly onToggle: (relative: string) => void;
  readonly onOpen: (file: FileLeaf) => void;
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
              <span className="file-row__count">{child.changed > 0 ? `${child.changed} changed · ${child.count}` : child.count}</span>
            </button>
            {open.has(child.relative) ? (
              <ul role="group">
                <FolderChildren folder={child} open={open} depth={depth + 1} onToggle={onToggle} onOpen={onOpen} />
              </ul>
            ) : null}
          </li>
        ) : (
          <li key={`f:${child.name}`} role="treeitem">
            <button
              type="button"
              className={`file-row${child.status ? ` is-${child.status}` : ''}${child.unknown ? ' is-unknown' : ''}`}
              style={indent}
              data-testid="tree-file"
              data-path={child.relative}
              onClick={() => onOpen(child)}
              title={child.unknown ? `${child.relative} — content not known at this node` : child.relative}
            >
              <FileStatusMark status={child.status} unknown={child.unknown} />
              <span className="file-row__name">{child.name}</span>
            </button>
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
