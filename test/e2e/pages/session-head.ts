/** Page object for the open session's head: its title, the view switch, Export… and Delete…, and its facts. */
import type { Locator, Page } from '@playwright/test';

/** What the head shows, as a user reads it: how much of the title is in sight, and what is hidden or covered. */
export interface HeadReading {
  /** The title's whole text, and how many of its characters are in sight (all of them when it is not cut). */
  readonly title: string;
  readonly titleShown: number;
  readonly tooltip: string | null;
  /** The head's parts (title text, buttons, facts) that share pixels with another. */
  readonly overlaps: string[];
  /** Buttons out of the head's box or the window, or covered at their centre by something else. */
  readonly outOfReach: string[];
  readonly buttons: number;
}

export class SessionHead {
  readonly root: Locator;
  readonly title: Locator;

  constructor(readonly page: Page) {
    this.root = page.locator('.graph-pane__head');
    this.title = this.root.locator('.graph-pane__title');
  }

  async read(): Promise<HeadReading> {
    return this.root.evaluate(readHead);
  }
}

/** In the page: measures the head (see HeadReading). */
function readHead(head: Element): HeadReading {
  const title = head.querySelector<HTMLElement>('.graph-pane__title')!;
  const text = title.textContent ?? '';
  const clip = title.getBoundingClientRect();
  // The title's characters whose box lies wholly inside the title's own box, short of the room its ellipsis takes.
  const node = title.firstChild;
  const cut = title.scrollWidth > title.clientWidth + 1;
  let shown = 0;
  let textBox: DOMRect | null = null;
  if (node !== null && node.nodeType === Node.TEXT_NODE) {
    const range = document.createRange();
    const ellipsis = cut ? parseFloat(getComputedStyle(title).fontSize) : 0;
    for (let k = 1; k <= text.length; k++) {
      range.setStart(node, 0);
      range.setEnd(node, k);
      const box = range.getBoundingClientRect();
      if (box.right > clip.right - ellipsis + 0.5) break;
      shown = k;
      textBox = box;
    }
  }
  const parts: { name: string; box: DOMRect }[] = [];
  if (textBox !== null && shown > 0) parts.push({ name: 'title text', box: textBox });
  const buttons = [...head.querySelectorAll<HTMLElement>('button')].filter((button) => button.getClientRects().length > 0);
  for (const button of buttons) parts.push({ name: `button "${button.textContent ?? button.getAttribute('aria-label') ?? ''}"`, box: button.getBoundingClientRect() });
  for (const fact of head.querySelectorAll<HTMLElement>('.graph-pane__meta > *')) {
    // A fact that is (or holds) a button is counted once, as its button.
    if (fact.getClientRects().length > 0 && fact.tagName !== 'BUTTON' && !fact.querySelector('button')) parts.push({ name: `fact "${fact.textContent ?? ''}"`, box: fact.getBoundingClientRect() });
  }
  const overlaps: string[] = [];
  for (let a = 0; a < parts.length; a++) {
    for (let b = a + 1; b < parts.length; b++) {
      const [p, q] = [parts[a]!.box, parts[b]!.box];
      if (Math.min(p.right, q.right) - Math.max(p.left, q.left) > 0.5 && Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top) > 0.5) {
        overlaps.push(`${parts[a]!.name} / ${parts[b]!.name}`);
      }
    }
  }
  const area = head.getBoundingClientRect();
  const outOfReach: string[] = [];
  for (const button of buttons) {
    const box = button.getBoundingClientRect();
    const name = button.textContent || button.getAttribute('aria-label') || '?';
    const inside = box.left >= area.left - 0.5 && box.right <= area.right + 0.5 && box.top >= area.top - 0.5 && box.bottom <= area.bottom + 0.5;
    const inWindow = box.left >= 0 && box.top >= 0 && box.right <= window.innerWidth && box.bottom <= window.innerHeight;
    const hit = document.elementFromPoint((box.left + box.right) / 2, (box.top + box.bottom) / 2);
    if (!inside || !inWindow) outOfReach.push(`${name} outside the head`);
    else if (hit === null || !button.contains(hit)) outOfReach.push(`${name} covered`);
  }
  return { title: text, titleShown: shown, tooltip: title.getAttribute('title'), overlaps, outOfReach, buttons: buttons.length };
}
