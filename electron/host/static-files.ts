/**
 * Serves the built renderer (out/renderer) read-only. Paths are resolved inside the renderer folder and
 * checked again after following symlinks, so no URL (encoded `..`, backslashes, NUL) can reach other files.
 */
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { SECURITY_HEADERS } from './content-security';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeFor(filePath: string): string {
  return CONTENT_TYPES[extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Maps a URL path to a file inside `root`, or undefined when the path is malformed or escapes the root.
 * Pure (no filesystem access) so it can be tested against every traversal trick.
 */
export function resolveStaticPath(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\') || !decoded.startsWith('/')) return undefined;
  const relativePath = decoded === '/' || decoded.endsWith('/') ? `${decoded}index.html` : decoded;
  const absoluteRoot = resolve(root);
  const target = resolve(absoluteRoot, `.${relativePath}`);
  return isInside(absoluteRoot, target) ? target : undefined;
}

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

export function sendText(response: ServerResponse, status: number, text: string, contentType = 'text/plain; charset=utf-8'): void {
  response.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': contentType, 'Cache-Control': 'no-store' });
  response.end(text);
}

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Arbor</title></head>
<body style="font-family: system-ui, sans-serif; margin: 3rem">
<h1>Arbor's interface has not been built yet</h1>
<p>Run <code>npm run build</code> in the Arbor folder, then reload this page.</p>
</body></html>
`;

/** Answers a GET/HEAD for a file of the renderer; the caller has already checked the Host header. */
export async function serveStatic(rendererDir: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('Allow', 'GET, HEAD');
    sendText(response, 405, 'Method not allowed\n');
    return;
  }
  const urlPath = new URL(request.url ?? '/', 'http://placeholder').pathname;
  const root = resolve(rendererDir);
  const indexPath = join(root, 'index.html');
  if (!(await isFile(indexPath))) {
    sendText(response, 503, NOT_BUILT_PAGE, 'text/html; charset=utf-8');
    return;
  }
  const target = resolveStaticPath(root, urlPath);
  if (target === undefined) {
    sendText(response, 400, 'Bad path\n');
    return;
  }
  // Client-side routes (no file extension) get the app; a missing asset is a plain 404.
  const file = (await isFile(target)) ? target : extname(target) === '' ? indexPath : undefined;
  if (file === undefined || !(await staysInside(root, file))) {
    sendText(response, 404, 'Not found\n');
    return;
  }
  const info = await stat(file);
  response.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': contentTypeFor(file),
    'Content-Length': String(info.size),
    // index.html is opened with the token in its URL; keep it out of caches. Hashed assets may be cached.
    'Cache-Control': file === indexPath ? 'no-store' : 'private, max-age=3600',
  });
  if (request.method === 'HEAD') {
    response.end();
    return;
  }
  createReadStream(file)
    .on('error', () => response.destroy())
    .pipe(response);
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** A symlink inside the renderer folder must not lead outside it. */
async function staysInside(root: string, file: string): Promise<boolean> {
  try {
    const [realRoot, realFile] = await Promise.all([realpath(root), realpath(file)]);
    return isInside(realRoot, realFile);
  } catch {
    return false;
  }
}
