import { SHORTCUT_AREAS, SHORTCUTS } from '../app/shortcuts';
import { Modal } from '../time-travel/Modal';
import './palette.css';

/** `?`: every shortcut, from the one table in app/shortcuts.ts. */
export function ShortcutsOverlay({ onClose }: { readonly onClose: () => void }) {
  return (
    <Modal title="Keyboard shortcuts" onClose={onClose} size="list" testId="shortcuts-overlay">
      <div className="shortcuts">
        {SHORTCUT_AREAS.map((area) => (
          <section key={area} className="shortcuts__area" aria-labelledby={`shortcuts-${area}`}>
            <h3 className="shortcuts__heading" id={`shortcuts-${area}`}>
              {area}
            </h3>
            <dl className="shortcuts__list">
              {SHORTCUTS.filter((s) => s.area === area).map((s) => (
                <div key={`${s.keys}:${s.does}`} className="shortcuts__row" data-testid="shortcut-row">
                  <dt>
                    <kbd>{s.keys}</kbd>
                  </dt>
                  <dd>{s.does}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </Modal>
  );
}
