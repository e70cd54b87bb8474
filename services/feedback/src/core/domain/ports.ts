import type {
  Claim,
  FeedbackItem,
  FeedbackRecord,
  FeedbackStatus,
  ItemForChange,
  MergedItem,
  StatusChange,
} from '../model/feedbackItem';
import type { FeedbackPage, FeedbackQuery } from '../model/feedbackQuery';

/**
 * What the use cases need of the stored items: the core's ports, implemented by its repositories
 * (core/data) and, in unit tests, by memory. Each write is one atomic single-document write (no
 * transactions on every supported server).
 */
export interface ItemStore {
  findById(orgIds: string | Iterable<string>, id: string): Promise<FeedbackItem | null>;
  /** The organization's item by id with the ids of the changes its last writes named; null when it has none. */
  findForChange(orgId: string, id: string): Promise<ItemForChange | null>;
  /** The organization's items among `ids` (malformed, unknown and other organizations' ids are missing), by lower-case id. */
  findOwn(orgId: string, ids: string[]): Promise<Map<string, ItemForChange>>;
  /**
   * Inserts the item under a chosen id unless it exists already; either way returns the stored item.
   * `changeIds` names the change of this creation, stored in the same write.
   */
  createOnce(
    orgId: string,
    id: string,
    record: FeedbackRecord,
    changeIds: string[],
  ): Promise<{ item: FeedbackItem; created: boolean }>;
  /** Writes a batch under chosen ids, in order (the presence of the last proves the whole batch); returns how many. */
  insertBatch(orgId: string, ids: string[], records: FeedbackRecord[]): Promise<number>;
  /**
   * Writes each item under its chosen id naming its own change (as createOnce does), unless an item has the
   * id already (another add got there first); the ids written.
   */
  insertEach(orgId: string, ids: string[], records: FeedbackRecord[], changeIds: string[]): Promise<string[]>;
  /**
   * Sets the status of a stored item if it still has the status it was read with; null when it was
   * deleted or changed meanwhile (read it again). `changeId` names the change in the same write.
   */
  setStatus(
    current: ItemForChange,
    status: FeedbackStatus,
    now?: Date,
    changeId?: string,
  ): Promise<StatusChange | null>;
  /** Deletes the item unless a change named another change since it was read; false when nothing was deleted. */
  removeUnchanged(read: ItemForChange): Promise<boolean>;
  /** Puts an item back exactly as it was, naming the change; null when it is live already. */
  restore(item: FeedbackItem, changeId: string): Promise<FeedbackItem | null>;
}

/** Items as they were just before they left the live items: removed, or merged into another item. */
export interface RemovedItems {
  record(id: string, fields: Omit<FeedbackItem, 'id'>): Promise<void>;
  recordMerged(id: string, fields: Omit<FeedbackItem, 'id'>, into: string): Promise<void>;
  findMerged(orgId: string, id: string): Promise<MergedItem | null>;
  forgetMerged(id: string): Promise<void>;
}

export interface IdempotencyKeys {
  /** Claims the key for this input (refusing another input under it); a replay gets the first claim. */
  claim(orgId: string, key: string, inputHash: string, now?: Date): Promise<Claim>;
  complete(orgId: string, key: string, item: FeedbackItem): Promise<void>;
}

/**
 * Items' ids on their platforms (`externalId`): the first claim of an organization's source and id fixes the
 * item's id for good, so a redelivery converges on the item as first created.
 */
export interface ExternalIds {
  /** `fresh`: this call made the claim (no earlier add of the id got as far as claiming it). */
  claim(orgId: string, source: string, externalId: string, now?: Date): Promise<Claim & { fresh: boolean }>;
  /** Claims many at once (a batch's), each as claim does, in their order. */
  claimAll(
    orgId: string,
    keys: Array<{ source: string; externalId: string }>,
    now?: Date,
  ): Promise<Array<Claim & { fresh: boolean }>>;
  complete(orgId: string, source: string, externalId: string, item: FeedbackItem): Promise<void>;
  completeAll(orgId: string, done: Array<{ source: string; externalId: string; item: FeedbackItem }>): Promise<void>;
}

/** A list of items: filters, a page, a total. */
export interface ItemLists {
  list(orgId: string, query: FeedbackQuery): Promise<FeedbackPage>;
}

/**
 * A search index of the items (a feature's, see search/): the page of a search it can answer, or null to
 * have the items answer it (a short term, an organization not indexed yet).
 */
export interface SearchAnswers {
  search(orgId: string, query: FeedbackQuery & { search: string }): Promise<FeedbackPage | null>;
}
