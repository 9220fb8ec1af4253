/**
 * A fake 'electron' module for Vitest (the node project aliases 'electron' here): records what the
 * Electron entry files ask for, so tests can assert window options, IPC channels and security handlers
 * without the binary. `fake` holds the knobs and recordings; call `resetFakeElectron()` between tests.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
type Listener = (...args: any[]) => unknown;

class Emitter {
  readonly listeners = new Map<string, Listener[]>();
  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  once(event: string, listener: Listener): this {
    const wrapped: Listener = (...args) => {
      this.off(event, wrapped);
      return listener(...args);
    };
    return this.on(event, wrapped);
  }
  off(event: string, listener: Listener): this {
    this.listeners.set(event, (this.listeners.get(event) ?? []).filter((l) => l !== listener));
    return this;
  }
  removeListener(event: string, listener: Listener): this {
    return this.off(event, listener);
  }
  emit(event: string, ...args: unknown[]): boolean {
    const list = this.listeners.get(event) ?? [];
    for (const listener of list) listener(...args);
    return list.length > 0;
  }
}

/** An Electron-style event whose default can be prevented. */
export function fakeEvent<T extends object>(extra: T = {} as T): T & { defaultPrevented: boolean; preventDefault(): void } {
  return Object.assign({ defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } }, extra);
}

let nextContentsId = 1;

export class FakeWebContents extends Emitter {
  readonly id = nextContentsId++;
  readonly sent: { channel: string; args: unknown[] }[] = [];
  readonly executed: string[] = [];
  windowOpenHandler: ((details: { url: string }) => { action: 'allow' | 'deny' }) | undefined;
  url = '';
  destroyed = false;
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'allow' | 'deny' }): void {
    this.windowOpenHandler = handler;
  }
  executeJavaScript(code: string): Promise<unknown> {
    this.executed.push(code);
    return Promise.resolve(undefined);
  }
  getURL(): string {
    return this.url;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
}

export class BrowserWindow extends Emitter {
  static instances: BrowserWindow[] = [];
  static getAllWindows(): BrowserWindow[] {
    return BrowserWindow.instances.filter((w) => !w.destroyed);
  }
  static getFocusedWindow(): BrowserWindow | null {
    return BrowserWindow.getAllWindows()[0] ?? null;
  }
  readonly options: any;
  readonly webContents = new FakeWebContents();
  loadedFile: string | undefined;
  loadedUrl: string | undefined;
  destroyed = false;
  visible = false;
  focused = false;
  constructor(options: any = {}) {
    super();
    this.options = options;
    BrowserWindow.instances.push(this);
    fake.app.emit('web-contents-created', fakeEvent(), this.webContents);
  }
  loadFile(path: string): Promise<void> {
    this.loadedFile = path;
    this.webContents.url = `file://${path}`;
    return Promise.resolve();
  }
  loadURL(url: string): Promise<void> {
    this.loadedUrl = url;
    this.webContents.url = url;
    return Promise.resolve();
  }
  show(): void {
    this.visible = true;
  }
  focus(): void {
    this.focused = true;
  }
  restore(): void {}
  isMinimized(): boolean {
    return false;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  close(): void {
    this.destroyed = true;
    this.emit('closed');
  }
}

class FakeIpcMain extends Emitter {
  readonly handlers = new Map<string, Listener>();
  handle(channel: string, listener: Listener): void {
    // Electron throws on a second handler for one channel; so does the fake.
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  /** Test helper: what ipcRenderer.invoke would get back. */
  invoke(channel: string, event: unknown, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (handler === undefined) return Promise.reject(new Error(`No handler registered for '${channel}'`));
    return Promise.resolve(handler(event, ...args));
  }
}

class FakeIpcRenderer extends Emitter {
  readonly invocations: { channel: string; args: unknown[] }[] = [];
  readonly sentMessages: { channel: string; args: unknown[] }[] = [];
  invokeResult: unknown = { ok: true, result: null };
  invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    this.invocations.push({ channel, args });
    return Promise.resolve(this.invokeResult);
  }
  send(channel: string, ...args: unknown[]): void {
    this.sentMessages.push({ channel, args });
  }
}

class FakeApp extends Emitter {
  readyResolve: (() => void) | undefined;
  readyPromise = new Promise<void>((resolve) => (this.readyResolve = resolve));
  paths = new Map<string, string>([
    ['userData', '/fake/userData'],
    ['home', '/fake/home'],
  ]);
  singleInstance = true;
  quitCalls = 0;
  exitCode: number | undefined;
  isPackaged = false;
  whenReady(): Promise<void> {
    return this.readyPromise;
  }
  getPath(name: string): string {
    const path = this.paths.get(name);
    if (path === undefined) throw new Error(`fake app has no path "${name}"`);
    return path;
  }
  setPath(name: string, value: string): void {
    this.paths.set(name, value);
  }
  getVersion(): string {
    return '0.1.0-test';
  }
  getName(): string {
    return 'Arbor';
  }
  requestSingleInstanceLock(): boolean {
    return this.singleInstance;
  }
  /** Like Electron: 'before-quit' may be prevented; otherwise the app is gone. */
  quit(): void {
    this.quitCalls++;
    const event = fakeEvent();
    this.emit('before-quit', event);
    if (!event.defaultPrevented) this.emit('quit');
  }
  exit(code = 0): void {
    this.exitCode = code;
  }
}

class FakeSession {
  headersListener: Listener | undefined;
  permissionRequestHandler: Listener | undefined | null;
  permissionCheckHandler: Listener | undefined | null;
  readonly webRequest = {
    onHeadersReceived: (listener: Listener) => {
      this.headersListener = listener;
    },
  };
  setPermissionRequestHandler(handler: Listener | null): void {
    this.permissionRequestHandler = handler;
  }
  setPermissionCheckHandler(handler: Listener | null): void {
    this.permissionCheckHandler = handler;
  }
}

function createState() {
  return {
    app: new FakeApp(),
    ipcMain: new FakeIpcMain(),
    ipcRenderer: new FakeIpcRenderer(),
    session: new FakeSession(),
    exposed: new Map<string, unknown>(),
    openedExternally: [] as string[],
    menus: [] as { template: unknown[] }[],
    applicationMenu: undefined as { template: unknown[] } | null | undefined,
    errorBoxes: [] as { title: string; content: string }[],
  };
}

export const fake = createState();

export function resetFakeElectron(): void {
  Object.assign(fake, createState());
  BrowserWindow.instances = [];
}

// The module surface the entry files import. Getters so a reset is seen by modules that imported earlier.
export const app = new Proxy({} as FakeApp, { get: (_t, key) => bindTo(fake.app, key) });
export const ipcMain = new Proxy({} as FakeIpcMain, { get: (_t, key) => bindTo(fake.ipcMain, key) });
export const ipcRenderer = new Proxy({} as FakeIpcRenderer, { get: (_t, key) => bindTo(fake.ipcRenderer, key) });
export const session = {
  get defaultSession(): FakeSession {
    return fake.session;
  },
};
export const contextBridge = {
  exposeInMainWorld(key: string, api: unknown): void {
    fake.exposed.set(key, api);
  },
};
export const shell = {
  openExternal(url: string): Promise<void> {
    fake.openedExternally.push(url);
    return Promise.resolve();
  },
};
export const Menu = {
  buildFromTemplate(template: unknown[]): { template: unknown[] } {
    const menu = { template };
    fake.menus.push(menu);
    return menu;
  },
  setApplicationMenu(menu: { template: unknown[] } | null): void {
    fake.applicationMenu = menu;
  },
};
export const dialog = {
  showErrorBox(title: string, content: string): void {
    fake.errorBoxes.push({ title, content });
  },
};

function bindTo(target: object, key: string | symbol): unknown {
  const value = Reflect.get(target, key);
  return typeof value === 'function' ? (value as Listener).bind(target) : value;
}

export default { app, ipcMain, ipcRenderer, session, contextBridge, shell, Menu, dialog, BrowserWindow };
