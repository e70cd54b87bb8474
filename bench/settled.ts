import type { SearchIndexStore, ThemeStore } from '@fi/feedback';
import { cpuMs } from './targets';

/**
 * When the back end has finished what a write leaves it: the feedback worker's themes and search index
 * caught up with the newest item, and no process of the back end busy. A loaded run measured while the
 * worker still digests a seed or the last scenario's writes (its themes take ~10 s of the database after
 * 3,000 items, its index waits SEARCH_INDEX_GRACE_MS before the newest) gave that work to whichever
 * target ran then: the same requests cost the back end 3.1 ms in one run and 4.0 ms in the next.
 */

export interface SearchIndexFigures {
  /** Seconds from the end of seeding until every item was indexed (the newest wait SEARCH_INDEX_GRACE_MS). */
  seconds: number;
  /** Items indexed since the previous size, and the indexer's working time for them. */
  items: number;
  workMs: number;
  /** The organization's index: posting documents, and bytes of postings' chunks and of blocks' ids. */
  postings: number;
  bytes: number;
}

const STATE_POLL_MS = 1_000;
const STATE_LIMIT_MS = 30 * 60_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const secondsSince = (started: number) => Math.round((Date.now() - started) / 100) / 10;

/**
 * Waits until the theme worker has computed the organization's themes from its items as they are and
 * counted every marked day (what a reader sees a minute after a change); returns the seconds it took.
 */
export async function themesSettled(store: ThemeStore, orgId: string): Promise<number> {
  const started = Date.now();
  for (;;) {
    const run = await store.run(orgId);
    if (run?.fingerprint === (await store.fingerprint(orgId)) && !(await store.countsStale(orgId, run)))
      return secondsSince(started);
    if (Date.now() - started > STATE_LIMIT_MS)
      throw new Error(`the themes of ${orgId} were not computed within 30 minutes`);
    await pause(STATE_POLL_MS);
  }
}

/**
 * Waits until the search indexer has indexed the organization's newest item (every item older than its
 * grace is indexed as soon as the indexer reaches it; the newest wait for the grace), and reads what it
 * took: its working time and the index's size.
 */
export async function searchSettled(
  store: SearchIndexStore,
  orgId: string,
  before: { items: number; workMs: number },
): Promise<SearchIndexFigures> {
  const started = Date.now();
  const newest = await store.newestId(orgId);
  for (;;) {
    const state = await store.state(orgId);
    if (newest && state?.watermark && state.watermark >= newest) {
      const size = await store.sizeOf(orgId);
      return {
        seconds: secondsSince(started),
        items: state.next - before.items,
        workMs: state.workMs - before.workMs,
        postings: size.postings,
        bytes: size.postingBytes + size.items * 12,
      };
    }
    if (Date.now() - started > STATE_LIMIT_MS)
      throw new Error(`the search index of ${orgId} did not catch up within 30 minutes`);
    await pause(STATE_POLL_MS);
  }
}

const add = (sum: number, value: number | null) => (value === null ? null : sum + value);

/** A back end at rest: all its processes together under this share of one core over one window. */
const REST_SHARE = 0.15;
const REST_WINDOW_MS = 2_000;
const REST_LIMIT_MS = 3 * 60_000;

/**
 * Waits until the back end's processes (subgraphs, worker, database, ...) together use under 15% of one
 * core over 2 s (at rest they use ~1% each: timers and polls); returns the seconds it took, or null when
 * they were still busy after 3 minutes (or /proc cannot tell), which the caller reports.
 */
export async function atRest(pids: number[]): Promise<number | null> {
  const started = Date.now();
  const total = () => pids.reduce<number | null>((sum, pid) => (sum === null ? null : add(sum, cpuMs(pid))), 0);
  while (Date.now() - started < REST_LIMIT_MS) {
    const before = total();
    await pause(REST_WINDOW_MS);
    const after = total();
    if (before === null || after === null) return null;
    if (after - before < REST_SHARE * REST_WINDOW_MS) return secondsSince(started);
  }
  return null;
}
