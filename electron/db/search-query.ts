/**
 * Turns what a person typed into a safe FTS5 query: every token quoted (so `"`, `*`, `AND`, `NEAR(`, `-`
 * are plain text), all tokens required, the last one prefix-matched for search-as-you-type.
 */
export function toFtsQuery(input: string): string | null {
  const tokens = input
    .split(/\s+/u)
    // A token with no letter or digit indexes to nothing; an empty phrase would only confuse FTS5.
    .filter((token) => /[\p{L}\p{N}]/u.test(token))
    .slice(0, 32)
    .map((token) => `"${token.replace(/"/g, '""')}"`);
  if (tokens.length === 0) return null;
  tokens[tokens.length - 1] += '*';
  return tokens.join(' ');
}
