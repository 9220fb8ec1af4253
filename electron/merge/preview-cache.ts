/**
 * Merge previews kept on the main side between `merge.preview` and `merge.apply` (the three trees, the
 * automatic merge, what the target held): a few at a time, for a limited time, newest kept.
 */
import { randomUUID } from 'node:crypto';
import { ArborError } from '../../shared/errors';

const MAX_PREVIEWS = 16;
const MAX_AGE_MS = 6 * 60 * 60 * 1000;

export class PreviewCache<T> {
  private readonly entries = new Map<string, { readonly value: T; readonly at: number }>();

  constructor(
    private readonly now: () => Date,
    private readonly limit = MAX_PREVIEWS,
  ) {}

  add(value: T): string {
    const token = `merge-${randomUUID()}`;
    this.entries.set(token, { value, at: this.now().getTime() });
    while (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as string);
    return token;
  }

  /** The preview, or NOT_FOUND when it is unknown, expired or was evicted: the caller previews again. */
  get(token: string): T {
    const entry = this.entries.get(token);
    if (entry === undefined || this.now().getTime() - entry.at > MAX_AGE_MS) {
      this.entries.delete(token);
      throw new ArborError('NOT_FOUND', 'This merge preview is no longer available: preview again', { token });
    }
    // Re-inserted: recently used previews are evicted last.
    this.entries.delete(token);
    this.entries.set(token, entry);
    return entry.value;
  }

  delete(token: string): void {
    this.entries.delete(token);
  }
}
