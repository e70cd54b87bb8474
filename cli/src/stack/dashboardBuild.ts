import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const DASHBOARD = path.resolve(__dirname, '../../../dashboard');
/** The built web application the gateway serves (DASHBOARD_DIR). */
export const DASHBOARD_DIST = path.join(DASHBOARD, 'dist');

function newestChange(target: string): number {
  const stat = statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(target).map((name) => newestChange(path.join(target, name))));
}

/** True when dist/ is missing or older than anything it is built from. */
function isStale(): boolean {
  const built = statSync(path.join(DASHBOARD_DIST, 'index.html'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const sources = ['src', 'index.html', 'vite.config.ts', 'package.json'].map((name) =>
    newestChange(path.join(DASHBOARD, name)),
  );
  return built < Math.max(...sources);
}

/** Builds the web application with Vite into `outDir` (dashboard/dist unless told): a few seconds. */
export async function buildDashboard(outDir = DASHBOARD_DIST): Promise<void> {
  // vite's exports do not name its bin; its package.json is named, and the bin sits beside it.
  const vite = path.join(path.dirname(require.resolve('vite/package.json', { paths: [DASHBOARD] })), 'bin/vite.js');
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const child = spawn(process.execPath, [vite, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], {
      cwd: DASHBOARD,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`the web application did not build:\n${output.trim()}`)),
    );
  });
}

/** `npm start`: Vite builds the page only when its sources changed since the last build. */
export async function buildDashboardIfStale(log: (line: string) => void): Promise<string> {
  if (!isStale()) return DASHBOARD_DIST;
  log('Building the web application (dashboard/)...');
  await buildDashboard();
  return DASHBOARD_DIST;
}
