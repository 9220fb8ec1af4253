/**
 * The one Content-Security-Policy for the renderer, sent as a header by both hosts (`arbor serve` and the
 * Electron session). The <meta> of renderer/index.html is the same policy without `frame-ancestors`, which
 * browsers ignore (and warn about) in a <meta>: it only takes effect as a header (a test keeps them equal).
 * Inline style attributes are needed by React Flow; scripts come from the bundle only.
 */
export const PAGE_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self' ws://127.0.0.1:* ws://localhost:*",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
].join('; ');

export const CONTENT_SECURITY_POLICY = `${PAGE_CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`;

/** Headers every response of the web host carries. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  // The page URL carries the per-launch token: never leak it in a Referer.
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};
