import { describe, expect, it } from 'vitest';
import { contentTypeFor, resolveStaticPath } from '../../../../electron/host/static-files';

describe('resolveStaticPath', () => {
  const root = '/srv/renderer';
  it('maps URL paths inside the renderer folder, / to index.html', () => {
    expect(resolveStaticPath(root, '/')).toBe('/srv/renderer/index.html');
    expect(resolveStaticPath(root, '/assets/app.js')).toBe('/srv/renderer/assets/app.js');
    expect(resolveStaticPath(root, '/assets/')).toBe('/srv/renderer/assets/index.html');
    expect(resolveStaticPath(root, '/a%20b.css')).toBe('/srv/renderer/a b.css');
  });
  it('refuses traversal, encoded or not, NUL bytes, backslashes and bad encodings', () => {
    for (const path of ['/../etc/passwd', '/assets/../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/..%2fsecret', '/..%5csecret', '/%00', '/a%E0%A4%A', 'relative', '/..']) {
      expect(resolveStaticPath(root, path), path).toBeUndefined();
    }
  });
});

describe('contentTypeFor', () => {
  it('names the usual web types and falls back to octet-stream', () => {
    expect(contentTypeFor('a/index.html')).toBe('text/html; charset=utf-8');
    expect(contentTypeFor('x.JS')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeFor('x.woff2')).toBe('font/woff2');
    expect(contentTypeFor('x.svg')).toBe('image/svg+xml');
    expect(contentTypeFor('x.unknown')).toBe('application/octet-stream');
  });
});
