import type { ChildProcess } from 'node:child_process';
import { MongoClient } from 'mongodb';

/** Resolves once the server answers a ping; rejects if the process exits or time runs out. */
export async function waitForMongo(uri: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode}`);
    const client = new MongoClient(uri, { serverSelectionTimeoutMS: 500 });
    try {
      await client.connect();
      await client.db('admin').command({ ping: 1 });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      await client.close().catch(() => undefined);
    }
  }
  throw new Error(`no answer within ${timeoutMs} ms`);
}
