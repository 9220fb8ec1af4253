/**
 * The desktop window's locks (Electron security checklist): our CSP on every response, no navigation away
 * from our own page, no new windows (web links go to the user's browser), no webviews, no permissions.
 */
import { shell, type Session, type WebContents } from 'electron';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONTENT_SECURITY_POLICY } from '../host/content-security';

/** The renderer's own address: the built index.html, or the electron-vite dev server in development. */
export interface RendererLocation {
  readonly indexHtml: string;
  readonly devServerUrl?: string;
}

/** True only for our renderer page (any #hash or ?query on it), never for another file or site. */
export function isOwnRendererUrl(url: string, location: RendererLocation): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (location.devServerUrl !== undefined) {
    try {
      if (parsed.origin === new URL(location.devServerUrl).origin) return true;
    } catch {
      // A malformed dev server URL allows nothing extra.
    }
  }
  if (parsed.protocol !== 'file:') return false;
  parsed.search = '';
  parsed.hash = '';
  try {
    return samePath(fileURLToPath(parsed), location.indexHtml);
  } catch {
    return false;
  }
}

function samePath(a: string, b: string): boolean {
  // Windows paths compare case-insensitively; elsewhere exactly.
  return process.platform === 'win32' ? resolve(a).toLowerCase() === resolve(b).toLowerCase() : resolve(a) === resolve(b);
}

/** Web links the renderer opens (after asking the user) go to the system browser; nothing else leaves. */
export function isExternalWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/** Writing text to the clipboard (a "Copy" button) is the one capability the UI uses; it cannot read anything. */
const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write']);

export function hardenSession(target: Session): void {
  target.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
  target.setPermissionRequestHandler((_contents, permission, callback) => callback(ALLOWED_PERMISSIONS.has(permission)));
  target.setPermissionCheckHandler((_contents, permission) => ALLOWED_PERMISSIONS.has(permission));
}

export function hardenWebContents(
  contents: WebContents,
  isOwnUrl: (url: string) => boolean,
  openExternal: (url: string) => Promise<void> = (url) => shell.openExternal(url),
): void {
  const blockForeign = (event: { preventDefault(): void }, url: string): void => {
    if (!isOwnUrl(url)) event.preventDefault();
  };
  contents.on('will-navigate', (event, url) => blockForeign(event, url));
  contents.on('will-redirect', (event, url) => blockForeign(event, url));
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalWebUrl(url)) void openExternal(url).catch(() => undefined);
    return { action: 'deny' };
  });
}
