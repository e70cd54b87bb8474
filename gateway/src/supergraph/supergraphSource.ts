import { createHash } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SupergraphSdlHook, SupergraphSdlUpdateFunction } from '@apollo/gateway';
import type { Logger } from '@fi/shared';

/** Editors and `npm run compose` write a file in several steps: one check after the last of them. */
const DEBOUNCE_MS = 200;

export type ReloadOutcome = 'applied' | 'rejected';

export interface SupergraphSourceOptions {
  /** Read when `url` is empty; watched (its directory, so a file replaced by rename is seen) and polled. */
  path: string;
  /** When set, polled with GET instead of reading `path`. */
  url: string;
  pollMs: number;
  fetchTimeoutMs: number;
  logger: Logger;
  onReload: (outcome: ReloadOutcome) => void;
}

interface Rejection {
  reason: string;
  hash: string;
  at: string;
}

const sha256 = (sdl: string) => createHash('sha256').update(sdl).digest('hex');

/**
 * Where the gateway's supergraph comes from, and every later version of it. A new version is applied
 * with the gateway's `update`, which builds it completely before swapping it in (requests already
 * planned finish on the old one) and throws without changing anything when it does not parse or
 * compose: then the old one keeps serving, and the rejection is logged, counted and shown in /ready.
 */
export class SupergraphSource {
  private hash = '';
  private loadedAt = '';
  private lastError: Rejection | null = null;
  private update: SupergraphSdlUpdateFunction | null = null;
  private watcher: FSWatcher | null = null;
  private poller: NodeJS.Timeout | null = null;
  private debounce: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;
  private checkAgain = false;
  private stopped = false;

  constructor(private readonly options: SupergraphSourceOptions) {}

  /** Reads the first version; fails with a message naming where it looked. */
  async initial(): Promise<string> {
    const sdl = await this.read();
    this.hash = sha256(sdl);
    this.loadedAt = new Date().toISOString();
    return sdl;
  }

  /** The gateway's `supergraphSdl` option: starts watching once the gateway holds the first version. */
  hook(initialSdl: string): SupergraphSdlHook {
    return async ({ update }) => {
      this.update = update;
      this.startWatching();
      return { supergraphSdl: initialSdl, cleanup: async () => this.stop() };
    };
  }

  /** What /ready shows: the version served and, when the latest one was refused, why. */
  details(): Record<string, unknown> {
    return {
      hash: this.hash,
      loadedAt: this.loadedAt,
      // Which kind only: the file's absolute path maps the host, and a URL may carry a token.
      source: this.options.url ? 'url' : 'file',
      lastError: this.lastError,
      ...(this.lastError
        ? {
            detail: `serving the supergraph loaded at ${this.loadedAt}; the newer one was rejected (${this.lastError.reason}), so the gateway stays ready`,
          }
        : {}),
    };
  }

  /** Looks for a new version now (one check at a time; a request during a check runs one more after it). */
  check(): Promise<void> {
    if (this.checking) {
      this.checkAgain = true;
      return this.checking;
    }
    this.checking = this.checkOnce().finally(() => {
      this.checking = null;
      if (this.checkAgain && !this.stopped) {
        this.checkAgain = false;
        void this.check();
      }
    });
    return this.checking;
  }

  stop(): void {
    this.stopped = true;
    this.watcher?.close();
    if (this.poller) clearInterval(this.poller);
    if (this.debounce) clearTimeout(this.debounce);
  }

  private startWatching(): void {
    if (this.stopped || this.poller) return;
    this.poller = setInterval(() => void this.check(), this.options.pollMs).unref();
    if (this.options.url) return;
    const file = path.basename(this.options.path);
    try {
      // Some file systems (network mounts, some containers) never report events: the poll covers them.
      this.watcher = watch(path.dirname(this.options.path), { persistent: false }, (_event, name) => {
        if (name === null || name === file) this.scheduleCheck();
      });
      this.watcher.on('error', (error) => {
        this.options.logger.warn({ err: error.message }, 'cannot watch the supergraph; polling it only');
        this.watcher?.close();
        this.watcher = null;
      });
    } catch (error) {
      this.options.logger.warn({ err: (error as Error).message }, 'cannot watch the supergraph; polling it only');
    }
  }

  private scheduleCheck(): void {
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = setTimeout(() => void this.check(), DEBOUNCE_MS).unref();
  }

  private async checkOnce(): Promise<void> {
    let sdl: string;
    try {
      sdl = await this.read();
    } catch (error) {
      // Not a new version (a file being replaced, a server restarting): the next check looks again.
      this.options.logger.debug({ err: (error as Error).message }, 'supergraph not readable; keeping the loaded one');
      return;
    }
    const hash = sha256(sdl);
    // Same content (a touch, an event for a write that changed nothing) or a version already refused.
    if (hash === this.hash || hash === this.lastError?.hash || this.stopped || !this.update) return;
    try {
      this.update(sdl);
    } catch (error) {
      const reason = (error as Error).message.split('\n')[0] ?? 'unknown error';
      this.lastError = { reason, hash, at: new Date().toISOString() };
      this.options.logger.warn(
        { reason, hash, servedHash: this.hash },
        'new supergraph rejected; keeping the loaded one',
      );
      this.options.onReload('rejected');
      return;
    }
    this.hash = hash;
    this.loadedAt = new Date().toISOString();
    this.lastError = null;
    this.options.logger.info({ hash }, 'new supergraph applied');
    this.options.onReload('applied');
  }

  private async read(): Promise<string> {
    const { url, fetchTimeoutMs } = this.options;
    if (!url) {
      try {
        return await readFile(this.options.path, 'utf8');
      } catch {
        throw new Error(`No supergraph at ${this.options.path}: run "npm run compose" first`);
      }
    }
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(fetchTimeoutMs) });
    } catch (error) {
      throw new Error(`GET ${url} failed: ${(error as Error).message}`, { cause: error });
    }
    if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
    return response.text();
  }
}
