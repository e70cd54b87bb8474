import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { dashboardFiles } from '../src/dashboard/dashboardFiles';

let dir: string;
let server: http.Server;
let origin: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'fi-dashboard-files-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><script type="module" src="/assets/app-1a2b.js"></script>',
  );
  writeFileSync(path.join(dir, 'assets', 'app-1a2b.js'), 'console.log("the page");'.repeat(50));
  writeFileSync(path.join(os.tmpdir(), 'fi-outside.txt'), 'not to be served');
  const handler = dashboardFiles(dir);
  server = http.createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** A raw GET (fetch would normalize `..` away and decode gzip itself). */
function get(
  urlPath: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${origin}/`, { path: urlPath, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the web application files the gateway serves', () => {
  test('when a page address is asked for, then index.html answers, never cached, with a strict content security policy', async () => {
    for (const address of ['/', '/settings/api-keys', '/sign-in?next=%2Fsettings']) {
      const answer = await get(address);
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
      expect(answer.headers['cache-control']).toBe('no-cache');
      expect(answer.headers['content-security-policy']).toContain("script-src 'self'");
      expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(answer.body.toString()).toContain('/assets/app-1a2b.js');
    }
  });

  test('when an asset is asked for with gzip, then it comes compressed and cached for good; a missing asset is 404, not the page', async () => {
    const plain = await get('/assets/app-1a2b.js');
    const zipped = await get('/assets/app-1a2b.js', { 'accept-encoding': 'gzip, br' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['cache-control']).toContain('immutable');
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    expect(zipped.body.length).toBeLessThan(plain.body.length);
    expect((await get('/assets/missing.js')).status).toBe(404);
  });

  test('when a path climbs out of the folder, then nothing outside it is served', async () => {
    for (const address of ['/../fi-outside.txt', '/assets/../../fi-outside.txt', '/%2e%2e/fi-outside.txt']) {
      const answer = await get(address);
      expect(answer.body.toString()).not.toContain('not to be served');
    }
  });

  test('when the folder holds no build, then the gateway refuses to start and names the folder', () => {
    expect(() => dashboardFiles(path.join(dir, 'assets'))).toThrow(
      /DASHBOARD_DIR=.*assets holds no built web application/,
    );
    expect(() => dashboardFiles(path.join(dir, 'nowhere'))).toThrow(/run npm run build/);
  });
});
