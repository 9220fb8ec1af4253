import { useEffect, useRef, useState } from 'react';

/**
 * Copies text with the async clipboard; where that is refused (plain http, no permission) it selects the
 * text in `fallbackTarget` so Ctrl+C finishes the job, and says so.
 */
export function CopyButton({ text, fallbackTarget, label = 'Copy' }: { readonly text: string; readonly fallbackTarget?: () => HTMLElement | null; readonly label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'selected'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => {
    if (timer.current !== null) clearTimeout(timer.current);
  }, []);
  const show = (next: 'copied' | 'selected') => {
    setState(next);
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = setTimeout(() => setState('idle'), 2500);
  };
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(text);
      show('copied');
    } catch {
      const target = fallbackTarget?.();
      const selection = window.getSelection();
      if (target && selection) {
        const range = document.createRange();
        range.selectNodeContents(target);
        selection.removeAllRanges();
        selection.addRange(range);
      }
      show('selected');
    }
  };
  return (
    <button type="button" className="secondary-button tt-copy" data-testid="copy-button" data-state={state} onClick={() => void copy()}>
      {state === 'copied' ? 'Copied' : state === 'selected' ? 'Selected — press Ctrl+C' : label}
    </button>
  );
}
