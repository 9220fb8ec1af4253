import { useCallback, useEffect, useState } from 'react';
import { typingInto } from '../app/shortcuts';
import { CommandPalette } from './CommandPalette';
import { ShortcutsOverlay } from './ShortcutsOverlay';

/** A dialog of the app's own (time travel, merge) is open: the palette and `?` wait until it closes. */
function dialogOpen(): boolean {
  return document.querySelector('[aria-modal="true"]') !== null;
}

export function isPaletteShortcut(event: KeyboardEvent): boolean {
  return (event.ctrlKey || event.metaKey) && !event.shiftKey && !event.altKey && event.key.toLowerCase() === 'k';
}

/** The command palette (Ctrl/Cmd+K) and the shortcut overlay (`?`), mounted once by App. */
export function PaletteLayer() {
  const [open, setOpen] = useState<'palette' | 'shortcuts' | null>(null);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      if (isPaletteShortcut(event)) {
        event.preventDefault();
        if (open === 'palette') setOpen(null);
        else if (open === null && !dialogOpen()) setOpen('palette');
      } else if (event.key === '?' && !event.ctrlKey && !event.metaKey && !event.altKey && !typingInto(event.target) && open === null && !dialogOpen()) {
        event.preventDefault();
        setOpen('shortcuts');
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  const close = useCallback(() => setOpen(null), []);
  const showShortcuts = useCallback(() => setOpen('shortcuts'), []);
  const focusSearch = useCallback(() => {
    const input = document.getElementById('arbor-search');
    if (input instanceof HTMLInputElement) {
      input.focus();
      input.select();
    }
  }, []);

  if (open === 'palette') return <CommandPalette onClose={close} showShortcuts={showShortcuts} focusSearch={focusSearch} />;
  if (open === 'shortcuts') return <ShortcutsOverlay onClose={close} />;
  return null;
}
