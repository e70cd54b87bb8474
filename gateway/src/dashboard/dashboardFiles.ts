import { readdirSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { ConfigError, type RouteHandler } from '@fi/shared';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json']);

// The page loads only its own scripts and styles and talks only to this origin: an injected script or
// a framing page gets nowhere.
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

interface File {
  body: Buffer;
  gzipped: Buffer | null;
  type: string;
  /** Hashed file names never change content: cached for a year. index.html is asked for every time. */
  cacheControl: string;
}

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(dir, path.join(prefix, entry.name)) : [path.join(prefix, entry.name)],
  );
}

function loadFiles(dir: string): Map<string, File> {
  const files = new Map<string, File>();
  for (const relative of listFiles(dir)) {
    const extension = path.extname(relative);
    const body = readFileSync(path.join(dir, relative));
    const urlPath = `/${relative.split(path.sep).join('/')}`;
    files.set(urlPath, {
      body,
      gzipped: COMPRESSIBLE.has(extension) ? gzipSync(body, { level: 9 }) : null,
      type: CONTENT_TYPES[extension] ?? 'application/octet-stream',
      cacheControl: urlPath.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
  }
  return files;
}

/**
 * The web application's built files (dashboard/dist), served by the gateway on the API's own origin so
 * the session cookie (SameSite=Strict) and the page's calls to /admin/graphql and /graphql need no CORS.
 * The files are read once at start (a few hundred KB) with their gzip forms. Any other GET path answers
 * index.html: the page's router shows the address asked for, so every page can be bookmarked.
 */
export function dashboardFiles(dir: string): RouteHandler {
  if (
    !statSync(dir, { throwIfNoEntry: false })?.isDirectory() ||
    !statSync(path.join(dir, 'index.html'), { throwIfNoEntry: false })
  ) {
    throw new ConfigError([
      `DASHBOARD_DIR=${dir} holds no built web application (index.html): run npm run build, or unset DASHBOARD_DIR`,
    ]);
  }
  const files = loadFiles(dir);
  const index = files.get('/index.html') as File;
  return async (req: IncomingMessage, res: ServerResponse) => {
    const urlPath = (req.url ?? '/').split('?')[0];
    const file = files.get(urlPath) ?? (urlPath.startsWith('/assets/') ? undefined : index);
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS });
      res.end('Not found');
      return;
    }
    const gzip = file.gzipped !== null && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    res.writeHead(200, {
      'content-type': file.type,
      'cache-control': file.cacheControl,
      vary: 'accept-encoding',
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
      ...SECURITY_HEADERS,
    });
    res.end(gzip ? file.gzipped : file.body);
  };
}
