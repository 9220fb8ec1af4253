/** One merged file's three versions as text for the merge view (`merge.file`). */
import { ArborError } from '../../shared/errors';
import { commonEncoding, decodeText, type MergedContent, type TextEncodingName, type TreeFile, type TreeMergeFile } from '../../shared/merge';
import type { MergeFileSides } from '../../shared/operations';
import type { PreparedMerge } from './merge-preview';

export function fileSides(prepared: PreparedMerge, path: string): MergeFileSides {
  const file = prepared.merge.files.find((candidate) => candidate.entry.path === path);
  if (file === undefined) throw new ArborError('NOT_FOUND', `${path} is not part of this merge`, { path });
  const binary = file.entry.binary === true;
  const encoding = binary ? 'utf8' : textEncodingOf(prepared, file);
  const text = (bytes: Uint8Array): string | null => (binary ? null : decodeText(bytes, encoding));
  const version = (tree: TreeFile | null): string | null => (tree === null ? null : text(prepared.blobs.load(tree.oid)));
  const merged = (content: MergedContent): string | null => {
    switch (content.kind) {
      case 'deleted':
        return null;
      case 'text':
        return text(content.bytes);
      case 'file':
        return text(prepared.blobs.load(content.file.oid));
    }
  };
  return { path, base: version(file.base), ours: version(file.ours), theirs: version(file.theirs), binary, merged: merged(file.result) };
}

/**
 * How the merge view sees a file's text, and how its edited text goes back to bytes: UTF-8, or latin1 (byte
 * for byte) when one of the versions is not UTF-8, as the text merge itself decided.
 */
export function textEncodingOf(prepared: PreparedMerge, file: TreeMergeFile): TextEncodingName {
  if (file.text !== undefined) return file.text.encoding;
  const versions = [file.base, file.ours, file.theirs].filter((version): version is TreeFile => version !== null);
  return commonEncoding(versions.map((version) => prepared.blobs.load(version.oid)));
}
