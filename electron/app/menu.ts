/** The application menu: the platform's standard menus, plus Find (focuses the session search). */
import { Menu, type BrowserWindow, type MenuItemConstructorOptions } from 'electron';

/**
 * Asks the page to focus its search box. The renderer may handle the `arbor:find` DOM event itself
 * (calling preventDefault); otherwise the first search input gets the focus.
 */
export const FOCUS_SEARCH_SCRIPT = `(() => {
  const event = new CustomEvent('arbor:find', { cancelable: true });
  if (!window.dispatchEvent(event)) return;
  const box = document.querySelector('input[type="search"], [role="searchbox"]');
  if (box instanceof HTMLElement) { box.focus(); if (box instanceof HTMLInputElement) box.select(); }
})()`;

export function focusSearch(window: BrowserWindow | null | undefined): void {
  if (window === null || window === undefined || window.isDestroyed()) return;
  void window.webContents.executeJavaScript(FOCUS_SEARCH_SCRIPT).catch(() => undefined);
}

export function menuTemplate(platform: NodeJS.Platform, focusedWindow: () => BrowserWindow | null): MenuItemConstructorOptions[] {
  const isMac = platform === 'darwin';
  const find: MenuItemConstructorOptions = {
    label: 'Find…',
    accelerator: 'CmdOrCtrl+F',
    click: () => focusSearch(focusedWindow()),
  };
  return [
    ...(isMac ? [{ role: 'appMenu' } as MenuItemConstructorOptions] : []),
    { role: 'fileMenu' },
    {
      label: 'Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' },
        { type: 'separator' },
        find,
      ],
    },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
  ];
}

export function installMenu(platform: NodeJS.Platform, focusedWindow: () => BrowserWindow | null): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(platform, focusedWindow)));
}
