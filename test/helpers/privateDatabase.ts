import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type EmbeddedMongo, freePort, startFerretDb } from '@fi/cli/embedded';

/** A FerretDB of one test's own, on a fixed loopback port, that the test may stop and start again. */
export class PrivateDatabase {
  private server: EmbeddedMongo | null = null;

  private constructor(
    readonly port: number,
    private readonly dataDir: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** `env` adds to the server's environment (FERRETDB_SQLITE_PUSHDOWN=off reads as the stock build does). */
  static async start(env: NodeJS.ProcessEnv = {}): Promise<PrivateDatabase> {
    const database = new PrivateDatabase(await freePort(), mkdtempSync(path.join(os.tmpdir(), 'fi-private-db-')), env);
    await database.restart();
    return database;
  }

  get uri(): string {
    return `mongodb://127.0.0.1:${this.port}/`;
  }

  get process() {
    if (!this.server) throw new Error('the private database is stopped');
    return this.server.process;
  }

  async restart(): Promise<void> {
    this.server = await startFerretDb(process.env.FERRETDB_BIN as string, this.dataDir, this.port, this.env);
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    if (signal === 'SIGTERM') return server.stop();
    await new Promise<void>((resolve) => {
      server.process.once('exit', () => resolve());
      server.process.kill(signal);
    });
  }

  async destroy(): Promise<void> {
    this.server?.process.kill('SIGCONT');
    await this.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
