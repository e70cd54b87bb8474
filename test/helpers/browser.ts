import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildDashboard } from '@fi/cli';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (apt-get install chromium): nothing is ever downloaded for the browser tests. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
}

/** Builds the web application into a folder of its own, so a test never serves a stale dashboard/dist. */
export async function buildDashboardForTest(): Promise<{ dir: string; remove(): void }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fi-dashboard-'));
  await buildDashboard(dir);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
