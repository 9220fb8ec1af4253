/**
 * The desktop app's composition root: the one place that builds the service and binds it to Electron.
 * Order: single-instance lock → ready → data folder → service → IPC → window → menu. Quitting closes the
 * service (and its database) before the process ends.
 */
import { app, BrowserWindow, dialog, ipcMain, session, type WebContents } from 'electron';
import { join, resolve } from 'node:path';
import { installMenu } from './app/menu';
import { hardenSession, hardenWebContents, isOwnRendererUrl, type RendererLocation } from './app/security';
import { createMainWindow } from './app/window';
import { bindIpc, forwardEvents } from './ipc/bind-ipc';
import { createArborService } from './service/arbor-service';
import { DATA_DIR_ENV } from './service/data-dir';
import type { ArborService } from './service/service-types';
import { startScheduledGc } from './service/gc-schedule-runner';

const PRELOAD_PATH = join(__dirname, '../preload/preload.cjs');
const INDEX_HTML = join(__dirname, '../renderer/index.html');

/** Resolves once the window is open (tests await it); never rejects — startup failures are shown and quit. */
export const started: Promise<void> = bootstrap();

async function bootstrap(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  // Tests and power users point the app at another store; Chromium's own profile follows it there.
  const dataDirOverride = process.env[DATA_DIR_ENV];
  if (dataDirOverride !== undefined && dataDirOverride !== '') app.setPath('userData', resolve(dataDirOverride));

  const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
  const location: RendererLocation = devServerUrl === undefined ? { indexHtml: INDEX_HTML } : { indexHtml: INDEX_HTML, devServerUrl };
  const isOwnUrl = (url: string): boolean => isOwnRendererUrl(url, location);
  app.on('web-contents-created', (_event: unknown, contents: WebContents) => hardenWebContents(contents, isOwnUrl));

  await app.whenReady();
  let service: ArborService;
  try {
    service = await createArborService({
      dataDir: app.getPath('userData'),
      host: 'electron',
      version: app.getVersion(),
      homeDir: app.getPath('home'),
      env: process.env,
    });
  } catch (error) {
    dialog.showErrorBox('Arbor could not open its data', error instanceof Error ? error.message : String(error));
    app.exit(1);
    return;
  }

  // Transcripts agents are writing now are imported as they grow; the window reloads on sessions.changed.
  const tail = service.tail();
  // Hook captures from agents running now are handed to this process, whose caches are warm.
  void service.listenForHooks();
  // The background gc on the user's schedule (arbor gc --schedule); it waits its turn behind imports.
  startScheduledGc(service.api, { onError: (error) => process.stderr.write(`arbor: scheduled gc: ${error instanceof Error ? error.message : String(error)}\n`) });
  hardenSession(session.defaultSession);
  const unbindIpc = bindIpc({ ipcMain, api: service.api, senderAllowed: isOwnUrl });
  const stopEvents = forwardEvents(service.events, (channel, message) => {
    for (const window of BrowserWindow.getAllWindows()) {
      if (!window.isDestroyed() && !window.webContents.isDestroyed()) window.webContents.send(channel, message);
    }
  });
  const openWindow = (): BrowserWindow => createMainWindow({ preload: PRELOAD_PATH, indexHtml: INDEX_HTML, ...(devServerUrl === undefined ? {} : { devServerUrl }) });
  let mainWindow: BrowserWindow | null = openWindow();
  installMenu(process.platform, () => BrowserWindow.getFocusedWindow() ?? mainWindow);

  app.on('second-instance', () => {
    if (mainWindow === null || mainWindow.isDestroyed()) mainWindow = openWindow();
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = openWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  // Hold the quit until the database is closed cleanly, then let it through.
  let shutdown: Promise<void> | undefined;
  let closed = false;
  app.on('before-quit', (event: { preventDefault(): void }) => {
    if (closed) return;
    event.preventDefault();
    shutdown ??= (async () => {
      await tail.stop().catch(() => undefined);
      stopEvents();
      unbindIpc();
      await service.close().catch(() => undefined);
      closed = true;
      app.quit();
    })();
  });
}
