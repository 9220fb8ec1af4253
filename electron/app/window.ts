/** The main window: sandboxed, isolated renderer with the narrow preload; nothing Node reaches the page. */
import { BrowserWindow } from 'electron';

export interface WindowPaths {
  /** out/preload/preload.cjs */
  readonly preload: string;
  /** out/renderer/index.html */
  readonly indexHtml: string;
  /** electron-vite's dev server, in development only. */
  readonly devServerUrl?: string;
}

export function createMainWindow(paths: WindowPaths): BrowserWindow {
  const window = new BrowserWindow({
    title: 'Arbor',
    width: 1280,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    show: false,
    backgroundColor: '#1e1e1e',
    webPreferences: {
      preload: paths.preload,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      webviewTag: false,
      spellcheck: false,
    },
  });
  window.once('ready-to-show', () => window.show());
  if (paths.devServerUrl !== undefined) void window.loadURL(paths.devServerUrl);
  else void window.loadFile(paths.indexHtml);
  return window;
}
