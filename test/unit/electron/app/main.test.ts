/**
 * The desktop composition root, run against the fake 'electron' module (vitest aliases it) and a fake
 * service: window security settings, IPC channels, navigation/open locks, quitting closes the service.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IPC_EVENT_CHANNEL, METHOD_NAMES, ipcChannel } from '../../../../shared/contract';
import type { ArborServiceOptions } from '../../../../electron/service/service-types';
import { createFakeService, type FakeService } from '../../../fakes/fake-service';
import type * as FakeElectronModule from '../../../fakes/electron';

const state = vi.hoisted(() => ({ service: undefined as FakeService | undefined, options: undefined as unknown, fail: false }));

vi.mock('../../../../electron/service/arbor-service', () => ({
  createArborService: async (options: ArborServiceOptions) => {
    state.options = options;
    if (state.fail) throw new Error('database is locked');
    state.service = createFakeService();
    return state.service;
  },
}));

type FakeElectron = typeof FakeElectronModule;

async function boot(): Promise<FakeElectron> {
  vi.resetModules();
  const electron = await import('../../../fakes/electron');
  const main = await import('../../../../electron/main');
  electron.fake.app.readyResolve?.();
  await main.started;
  return electron;
}

describe('electron/main.ts', () => {
  const savedEnv = { ...process.env };
  beforeEach(() => {
    state.service = undefined;
    state.fail = false;
    delete process.env.ARBOR_DATA_DIR;
    delete process.env.ELECTRON_RENDERER_URL;
  });
  afterEach(() => {
    process.env = { ...savedEnv };
  });

  it('opens a sandboxed, isolated window with the CommonJS preload and the built renderer', async () => {
    const { BrowserWindow } = await boot();
    expect(BrowserWindow.instances).toHaveLength(1);
    const window = BrowserWindow.instances[0]!;
    expect(window.options.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false, webSecurity: true });
    expect(window.options.webPreferences.preload).toMatch(/[\\/]preload[\\/]preload\.cjs$/);
    expect(window.loadedFile).toMatch(/[\\/]renderer[\\/]index\.html$/);
  });

  it('builds the service on the userData folder (or ARBOR_DATA_DIR) as the electron host', async () => {
    await boot();
    expect(state.options).toMatchObject({ dataDir: '/fake/userData', host: 'electron', homeDir: '/fake/home', version: '0.1.0-test' });
    process.env.ARBOR_DATA_DIR = '/tmp/arbor-e2e-data';
    await boot();
    expect(state.options).toMatchObject({ dataDir: '/tmp/arbor-e2e-data' });
  });

  it('registers every method channel', async () => {
    const { fake } = await boot();
    for (const method of METHOD_NAMES) expect(fake.ipcMain.handlers.has(ipcChannel(method)), method).toBe(true);
  });

  it('answers IPC calls from its own page and refuses other frames and bad payloads', async () => {
    const { fake, BrowserWindow } = await boot();
    const own = { sender: { id: 1 }, senderFrame: { url: BrowserWindow.instances[0]!.webContents.url } };
    expect(await fake.ipcMain.invoke('arbor:app.info', own, {}, 1)).toMatchObject({ ok: true, result: { host: 'web' } });
    expect(await fake.ipcMain.invoke('arbor:sessions.list', own, { limit: -1 }, 2)).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    const foreign = { sender: { id: 1 }, senderFrame: { url: 'https://evil.example/' } };
    expect(await fake.ipcMain.invoke('arbor:app.info', foreign, {}, 3)).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED' } });
  });

  it('blocks navigation away from the renderer and denies new windows, opening web links externally', async () => {
    const { fake, fakeEvent, BrowserWindow } = await boot();
    const contents = BrowserWindow.instances[0]!.webContents;
    const away = fakeEvent();
    contents.emit('will-navigate', away, 'https://evil.example/');
    expect(away.defaultPrevented).toBe(true);
    const otherFile = fakeEvent();
    contents.emit('will-navigate', otherFile, 'file:///etc/passwd');
    expect(otherFile.defaultPrevented).toBe(true);
    const home = fakeEvent();
    contents.emit('will-navigate', home, `${contents.url}#/session/1`);
    expect(home.defaultPrevented).toBe(false);

    expect(contents.windowOpenHandler?.({ url: 'https://docs.example/page' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler?.({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(fake.openedExternally).toEqual(['https://docs.example/page']);
  });

  it('sets the CSP header and denies permission requests', async () => {
    const { fake } = await boot();
    let headers: Record<string, string[]> = {};
    fake.session.headersListener?.({ responseHeaders: { 'X-Test': ['1'] } }, (response: { responseHeaders: Record<string, string[]> }) => (headers = response.responseHeaders));
    expect(headers['Content-Security-Policy']?.[0]).toContain("script-src 'self'");
    expect(headers['X-Test']).toEqual(['1']);
    const answers: boolean[] = [];
    for (const permission of ['geolocation', 'media', 'notifications', 'openExternal']) fake.session.permissionRequestHandler?.({}, permission, (ok: boolean) => answers.push(ok));
    expect(answers).toEqual([false, false, false, false]);
    expect(fake.session.permissionCheckHandler?.({}, 'media')).toBe(false);
  });

  it('forwards service events to the window', async () => {
    const { BrowserWindow } = await boot();
    state.service!.emit('sessions.changed', { sessionIds: ['s1'] });
    expect(BrowserWindow.instances[0]!.webContents.sent).toEqual([{ channel: IPC_EVENT_CHANNEL, args: [{ event: 'sessions.changed', payload: { sessionIds: ['s1'] } }] }]);
  });

  it('installs a menu whose Find item asks the page to focus search', async () => {
    const { fake, BrowserWindow } = await boot();
    const template = fake.applicationMenu?.template as { label?: string; submenu?: { label?: string; accelerator?: string; click?: () => void }[] }[];
    const find = template.flatMap((menu) => menu.submenu ?? []).find((item) => item.label === 'Find…');
    expect(find?.accelerator).toBe('CmdOrCtrl+F');
    find?.click?.();
    expect(BrowserWindow.instances[0]!.webContents.executed[0]).toContain('arbor:find');
  });

  it('closes the service before letting the app quit', async () => {
    const { fake } = await boot();
    fake.app.quit();
    await vi.waitFor(() => expect(fake.app.quitCalls).toBe(2));
    expect(state.service!.closed).toBe(true);
    expect(state.service!.listenerCount()).toBe(0);
    expect(fake.ipcMain.handlers.size).toBe(0);
  });

  it('quits at once when another instance holds the lock', async () => {
    vi.resetModules();
    const electron = await import('../../../fakes/electron');
    electron.fake.app.singleInstance = false;
    const main = await import('../../../../electron/main');
    await main.started;
    expect(electron.fake.app.quitCalls).toBe(1);
    expect(electron.BrowserWindow.instances).toHaveLength(0);
    expect(state.service).toBeUndefined();
  });

  it('shows an error and exits when the store cannot be opened', async () => {
    state.fail = true;
    const { fake, BrowserWindow } = await boot();
    expect(fake.errorBoxes[0]?.content).toContain('database is locked');
    expect(fake.app.exitCode).toBe(1);
    expect(BrowserWindow.instances).toHaveLength(0);
  });
});
