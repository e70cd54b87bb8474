import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Everything `npm start` keeps on disk: the embedded database, logs, the demo key, the running stack. */
export const DATA_DIR = process.env.FI_DATA_DIR ?? path.resolve(__dirname, '../../../.data');
const STACK_FILE = path.join(DATA_DIR, 'stack.json');

/** What a running `npm start` tells the CLI and extra gateway instances, so they find it by themselves. */
export interface StackFile {
  pid: number;
  mongodbUri: string;
  redisUrl?: string;
  gatewayUrl: string;
  /** `integrations` is absent in the file of a stack started before the service existed. */
  subgraphUrls: { feedback: string; contacts: string; accounts: string; integrations?: string };
}

export function writeStackFile(stack: StackFile): void {
  mkdirSync(DATA_DIR, { recursive: true });
  writeFileSync(STACK_FILE, JSON.stringify(stack, null, 2));
}

export function removeStackFile(): void {
  rmSync(STACK_FILE, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The running stack, or null when none is running (a stale file from a crash is ignored). */
export function readRunningStack(): StackFile | null {
  if (!existsSync(STACK_FILE)) return null;
  try {
    const stack = JSON.parse(readFileSync(STACK_FILE, 'utf8')) as StackFile;
    return isAlive(stack.pid) ? stack : null;
  } catch {
    return null;
  }
}
