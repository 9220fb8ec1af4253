import { useEffect, useState } from 'react';
import { startApp } from '../state/app-start';
import { clearNoticesOnMove } from '../state/notice-slice';
import { Inspector } from '../inspector/Inspector';
import { ImportStatus } from '../import/ImportStatus';
import { SearchBox } from '../search/SearchBox';
import { GraphPane } from '../session/GraphPane';
import { ProjectLineageLayer } from '../lineage/ProjectLineageView';
import { StatisticsButton } from '../statistics/StatisticsButton';
import { StatisticsLayer } from '../statistics/StatisticsView';
import { PaletteLayer } from '../palette/PaletteLayer';
import { SessionList } from '../sessions/SessionList';
import { ExportLayer } from '../export/ExportLayer';
import { ArchiveLayer } from '../archive/ArchiveLayer';
import { ForgetLayer } from '../forget/ForgetLayer';
import { ForksButton } from '../time-travel/ForksDialog';
import { HistoryButton } from '../time-travel/HistoryDialog';
import { TimeTravelLayer } from '../time-travel/TimeTravelLayer';
import { useAppStoreApi, useArborClient } from './app-context';
import { ConnectionBanner, ConnectionStatus, ErrorBanner } from './Banners';
import { PaneSplitter } from './PaneSplitter';
import { DEFAULT_PANES, fitPanes, resizePane, type PaneWidths } from './pane-layout';
import { useWindowWidth } from './use-window-width';
import { ArborLogo } from './icons';
import { CleanupNoticeBanner } from '../archive/CleanupNoticeBanner';

const LAYOUT_KEY = 'arbor.layout.v1';

function loadLayout(): PaneWidths {
  try {
    const saved = JSON.parse(localStorage.getItem(LAYOUT_KEY) ?? 'null') as { left?: unknown; right?: unknown } | null;
    if (saved && typeof saved.left === 'number' && typeof saved.right === 'number') return { left: saved.left, right: saved.right };
  } catch {
    // A corrupt saved layout just falls back to the default.
  }
  return DEFAULT_PANES;
}

export function App() {
  const store = useAppStoreApi();
  const client = useArborClient();
  const [layout, setLayout] = useState(loadLayout);
  const windowWidth = useWindowWidth();
  // What is shown always fits the window; what is saved stays the user's choice for a wider one.
  const shown = fitPanes(layout, windowWidth);

  useEffect(() => startApp(store, client, window), [store, client]);
  useEffect(() => clearNoticesOnMove(store), [store]);
  useEffect(() => {
    const timer = setTimeout(() => localStorage.setItem(LAYOUT_KEY, JSON.stringify(layout)), 300);
    return () => clearTimeout(timer);
  }, [layout]);

  return (
    <div
      className="app"
      style={{ gridTemplateColumns: `${shown.left}px 5px minmax(0, 1fr) 5px ${shown.right}px` }}
    >
      <header className="app-header">
        <div className="app-header__brand">
          <ArborLogo />
          <span>Arbor</span>
        </div>
        <SearchBox />
        <div className="app-header__status">
          <ConnectionStatus connected={<ImportStatus />} />
        </div>
        <ForksButton />
        <HistoryButton />
        <StatisticsButton />
      </header>
      <div className="app-banners">
        <ConnectionBanner />
        <ErrorBanner />
        <CleanupNoticeBanner />
      </div>
      <SessionList />
      <PaneSplitter label="Resize sessions list" direction={1} width={shown.left} onResize={(w) => setLayout((l) => resizePane(l, 'left', w, windowWidth))} />
      <GraphPane />
      <PaneSplitter label="Resize inspector" direction={-1} width={shown.right} onResize={(w) => setLayout((l) => resizePane(l, 'right', w, windowWidth))} />
      <Inspector />
      <TimeTravelLayer />
      <ExportLayer />
      <ArchiveLayer />
      <ForgetLayer />
      <PaletteLayer />
      <ProjectLineageLayer />
      <StatisticsLayer />
    </div>
  );
}
