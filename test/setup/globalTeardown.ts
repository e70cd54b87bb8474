import { rmSync } from 'node:fs';
import type { EmbeddedMongo } from '@fi/cli/embedded';
import type { PrivateRedis } from '../helpers/privateRedis';

export default async function globalTeardown(): Promise<void> {
  const state = globalThis as {
    __testDatabase?: { server: EmbeddedMongo; dataDir: string };
    __testRedis?: PrivateRedis;
  };
  await state.__testRedis?.stop();
  if (!state.__testDatabase) return;
  await state.__testDatabase.server.stop();
  rmSync(state.__testDatabase.dataDir, { recursive: true, force: true });
}
