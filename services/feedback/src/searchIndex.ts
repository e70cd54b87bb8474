import type { Connection } from '@fi/shared/database';
import { ChangeOutbox } from './changes';
import { CountStore } from './core';
import { IndexStore } from './search';

/**
 * The search index with what its indexer reads beside it: the organizations that have feedback (the
 * kept counts) and the import batches still being written (the change stream).
 */
export class SearchIndexStore extends IndexStore {
  private readonly counts: CountStore;
  private readonly outbox: ChangeOutbox;

  constructor(connection: Connection) {
    super(connection);
    this.counts = new CountStore(connection);
    this.outbox = new ChangeOutbox(connection);
  }

  /** When each organization's oldest import batch still being written began (see ChangeOutbox.oldestOpenImports). */
  openImports(limit?: number) {
    return this.outbox.oldestOpenImports(limit);
  }

  /** The organizations that have feedback (see CountStore.organizations). */
  organizations(): Promise<string[]> {
    return this.counts.organizations();
  }
}
