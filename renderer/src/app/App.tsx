import { useEffect, useState } from 'react';
import { startApp } from '../state/app-start';
import { Inspector } from '../inspector/Inspector';
import { ImportStatus } from '../import/ImportStatus';
import { SearchBox } from '../search/SearchBox';
import { GraphPane } from '../session/GraphPane';
import { PaletteLayer } from '../palette/PaletteLayer';
import { SessionList } from '../sessions/SessionList';
import { ForksButton } from '../time-travel/ForksDialog';
import { HistoryButton } from '../time-travel/HistoryDialog';
import { TimeTravelLayer } from '../time-travel/TimeTravelLayer';
import { useAppStoreApi, useArborClient } from './app-context';
import { ConnectionBanner, ErrorBanner } from './Banners';
import { PaneSplitter } from './PaneSplitter';
import { ArborLogo } from './icons';

const LAYOUT_KEY = 'arbor.layout.v1';
const clamp = (n: number, min: number, max: number) => Math.max(min, Math.min(max, n));

function loadLayout(): { left: number; right: number } {
  try {
    const saved = JSON.parse(localStorage.getItem(LAYOUT_KEY) ?? 'null') as { left?: unknown; right?: unknown } | null;
    if (saved && typeof saved.left === 'number' && typeof saved.right === 'number') return { left: saved.left, right: saved.right };
  } catch {
    // A corrupt saved layout just falls back to the default.
  }
  return { left: 300, right: 440 };
}

export function App() {
  const store = useAppStoreApi();
  const client = useArborClient();
  const [layout, setLayout] = useState(loadLayout);

  useEffect(() => startApp(store, client, window), [store, client]);
  useEffect(() => {
    const timer = setTimeout(() => localStorage.setItem(LAYOUT_KEY, JSON.stringify(layout)), 300);
    return () => clearTimeout(timer);
  }, [layout]);

  return (
    <div
      className="app"
      style={{ gridTemplateColumns: `${layout.left}px 5px minmax(240px, 1fr) 5px ${layout.right}px` }}
    >
      <header className="app-header">
        <div className="app-header__brand">
          <ArborLogo />
          <span>Arbor</span>
        </div>
        <SearchBox />
        <div className="app-header__status">
          <ImportStatus />
        </div>
        <ForksButton />
        <HistoryButton />
      </header>
      <div className="app-banners">
        <ConnectionBanner />
        <ErrorBanner />
      </div>
      <SessionList />
      <PaneSplitter label="Resize sessions list" direction={1} width={layout.left} onResize={(w) => setLayout((l) => ({ ...l, left: clamp(w, 200, 600) }))} />
      <GraphPane />
      <PaneSplitter label="Resize inspector" direction={-1} width={layout.right} onResize={(w) => setLayout((l) => ({ ...l, right: clamp(w, 280, 900) }))} />
      <Inspector />
      <TimeTravelLayer />
      <PaletteLayer />
    </div>
  );
}
