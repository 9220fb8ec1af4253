import { describe, expect, it } from 'vitest';
import { isExternalWebUrl, isOwnRendererUrl } from '../../../../electron/app/security';
import { menuTemplate } from '../../../../electron/app/menu';

describe('isOwnRendererUrl', () => {
  const location = { indexHtml: '/app/out/renderer/index.html' };
  it('accepts only our index.html, with any hash or query', () => {
    expect(isOwnRendererUrl('file:///app/out/renderer/index.html', location)).toBe(true);
    expect(isOwnRendererUrl('file:///app/out/renderer/index.html#/s/1?x=1', location)).toBe(true);
    expect(isOwnRendererUrl('file:///app/out/renderer/other.html', location)).toBe(false);
    expect(isOwnRendererUrl('file:///app/out/renderer/../../secret/index.html', location)).toBe(false);
    expect(isOwnRendererUrl('https://evil.example/app/out/renderer/index.html', location)).toBe(false);
    expect(isOwnRendererUrl('not a url', location)).toBe(false);
  });
  it('accepts the dev server origin only when one is configured', () => {
    expect(isOwnRendererUrl('http://localhost:5173/', location)).toBe(false);
    expect(isOwnRendererUrl('http://localhost:5173/#x', { ...location, devServerUrl: 'http://localhost:5173' })).toBe(true);
    expect(isOwnRendererUrl('http://localhost:5174/', { ...location, devServerUrl: 'http://localhost:5173' })).toBe(false);
  });
});

describe('isExternalWebUrl', () => {
  it('lets only http(s) links out to the browser', () => {
    expect(isExternalWebUrl('https://example.com')).toBe(true);
    expect(isExternalWebUrl('http://example.com')).toBe(true);
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'ms-settings:', 'nonsense']) expect(isExternalWebUrl(url), url).toBe(false);
  });
});

describe('menuTemplate', () => {
  it('has the standard menus, with an app menu only on macOS', () => {
    const roles = (platform: NodeJS.Platform) => menuTemplate(platform, () => null).map((m) => m.role ?? m.label);
    expect(roles('darwin')).toEqual(['appMenu', 'fileMenu', 'Edit', 'viewMenu', 'windowMenu']);
    expect(roles('linux')).toEqual(['fileMenu', 'Edit', 'viewMenu', 'windowMenu']);
  });
});
