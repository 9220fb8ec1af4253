/**
 * How well typed text matches a title: every typed word must occur in the text, as a substring (best),
 * at a word start, or failing those as letters in order ("frk" finds "fork"). Higher is better; null
 * is no match. Pure, so the palette's ranking is unit-tested without a DOM.
 */
export function matchScore(query: string, text: string): number | null {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return 0;
  const hay = text.toLowerCase();
  let score = 0;
  for (const word of words) {
    const at = hay.indexOf(word);
    if (at >= 0) {
      const wordStart = at === 0 || /[^a-z0-9]/.test(hay[at - 1]!);
      score += wordStart ? 3 : 2;
      if (at === 0) score += 1;
      continue;
    }
    if (!inOrder(word, hay)) return null;
    score += 1;
  }
  return score;
}

function inOrder(word: string, hay: string): boolean {
  let from = 0;
  for (const ch of word) {
    const at = hay.indexOf(ch, from);
    if (at < 0) return false;
    from = at + 1;
  }
  return true;
}

/** The items that match, best first; ties keep their order. */
export function rankByMatch<T>(query: string, items: readonly T[], text: (item: T) => string, limit: number): T[] {
  const scored: { item: T; score: number; index: number }[] = [];
  items.forEach((item, index) => {
    const score = matchScore(query, text(item));
    if (score !== null) scored.push({ item, score, index });
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.slice(0, limit).map((s) => s.item);
}
