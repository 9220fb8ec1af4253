/**
 * File contents met during a reconstruction, each kept once and named by its hash, so per-node state is a
 * map of small ids rather than copies of whole files.
 */
import { createHash } from 'node:crypto';
import { UNKNOWN_CONTENT, type FileContent } from './file-edits';

/** A content's id: a sha1 hex, or one of the two states that have no text. */
export type ContentId = string;
export const ABSENT_ID: ContentId = 'absent';
export const UNKNOWN_ID: ContentId = 'unknown';

export class ContentStore {
  private readonly texts = new Map<ContentId, string>();

  idOf(content: FileContent): ContentId {
    if (content === null) return ABSENT_ID;
    if (content === UNKNOWN_CONTENT) return UNKNOWN_ID;
    const id = createHash('sha1').update(content, 'utf8').digest('hex');
    if (!this.texts.has(id)) this.texts.set(id, content);
    return id;
  }

  contentOf(id: ContentId): FileContent {
    if (id === ABSENT_ID) return null;
    if (id === UNKNOWN_ID) return UNKNOWN_CONTENT;
    const text = this.texts.get(id);
    return text === undefined ? UNKNOWN_CONTENT : text;
  }

  /** How many distinct texts are kept. */
  get size(): number {
    return this.texts.size;
  }
}
