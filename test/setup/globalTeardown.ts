import { rmSync } from 'node:fs';
import type { EmbeddedMongo } from '../../cli/src/embedded/ferretdb';

export default async function globalTeardown(): Promise<void> {
  const database = (globalThis as { __testDatabase?: { server: EmbeddedMongo; dataDir: string } }).__testDatabase;
  if (!database) return;
  await database.server.stop();
  rmSync(database.dataDir, { recursive: true, force: true });
}
