import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (apt-get install chromium): nothing is ever downloaded for the browser tests. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
}

const DASHBOARD = path.resolve(__dirname, '../../dashboard');

/** Builds the web application into a folder of its own, so a test never serves a stale dashboard/dist. */
export async function buildDashboard(): Promise<{ dir: string; remove(): void }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fi-dashboard-'));
  const vite = path.join(path.dirname(require.resolve('vite/package.json', { paths: [DASHBOARD] })), 'bin/vite.js');
  await new Promise<void>((resolve, reject) =>
    execFile(process.execPath, [vite, 'build', '--outDir', dir, '--emptyOutDir', '--logLevel', 'error'], { cwd: DASHBOARD }, (error, _stdout, stderr) =>
      error ? reject(new Error(`vite build failed: ${stderr}`)) : resolve(),
    ),
  );
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
