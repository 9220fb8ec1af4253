import { useEffect, useRef, type ReactNode } from 'react';
import './time-travel.css';

export interface ModalProps {
  readonly title: ReactNode;
  readonly onClose: () => void;
  /** While an operation runs the dialog stays open: Escape and the backdrop do nothing. */
  readonly busy?: boolean;
  /** `wide`: a large fixed-size panel (diffs); `list`: wider than a form, as tall as its content. */
  readonly size?: 'form' | 'list' | 'wide';
  readonly testId?: string;
  readonly children: ReactNode;
  readonly footer?: ReactNode;
}

/** A centred dialog over the app: Escape or the backdrop closes it, focus moves in and comes back after. */
export function Modal({ title, onClose, busy = false, size = 'form', testId, children, footer }: ModalProps) {
  const panel = useRef<HTMLDivElement>(null);
  const busyRef = useRef(busy);
  busyRef.current = busy;
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const first = panel.current?.querySelector<HTMLElement>('[data-autofocus]') ?? panel.current;
    first?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !busyRef.current) {
        event.stopPropagation();
        closeRef.current();
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      before?.focus();
    };
  }, []);

  return (
    <div className="tt-backdrop" onMouseDown={(event) => event.target === event.currentTarget && !busy && onClose()}>
      <div
        className={`tt-modal tt-modal--${size}`}
        role="dialog"
        aria-modal="true"
        aria-label={typeof title === 'string' ? title : undefined}
        data-testid={testId}
        ref={panel}
        tabIndex={-1}
      >
        <header className="tt-modal__head">
          <h2 className="tt-modal__title">{title}</h2>
          <button type="button" className="tt-modal__close" aria-label="Close" onClick={onClose} disabled={busy}>
            ×
          </button>
        </header>
        {/* Focusable: a body taller than the dialog (the shortcut table) scrolls from the keyboard too. */}
        <div className="tt-modal__body" tabIndex={0}>
          {children}
        </div>
        {footer ? <footer className="tt-modal__foot">{footer}</footer> : null}
      </div>
    </div>
  );
}
