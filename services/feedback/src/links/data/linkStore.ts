import type { Connection } from 'mongoose';
import {
  cellCount,
  CountStore,
  type AuthorStats,
  type CellDocument,
  type FeedbackItem,
  type FeedbackQuery,
} from '../../core';
import { feedbackFilter, feedbackModel, NEWEST_FIRST, toItem, type FeedbackDocument } from '../../core/data';

/** A cell's counts and newest publishedDate (see CountStore). */
export type CellFigures = Pick<CellDocument, 'c'> & { newest: Date | null };

/** What this service adds to contacts and accounts reads of the items and the kept counts. */
export class LinkStore {
  private readonly items;
  private readonly counts: CountStore;

  constructor(connection: Connection) {
    this.items = feedbackModel(connection);
    this.counts = new CountStore(connection);
  }

  /**
   * The items of the given authors (lower-cased emails) matching the list's filters, newest first,
   * streamed: one query for a page of contacts (one per contact would scan the collection once each
   * on the embedded engine).
   */
  async *itemsOfEmails(orgIds: string[], emails: string[], query: FeedbackQuery): AsyncIterable<FeedbackItem> {
    const filter = { ...feedbackFilter('', query), orgId: { $in: orgIds }, emailLower: { $in: emails } };
    for await (const doc of this.items.find(filter).sort(NEWEST_FIRST).lean<FeedbackDocument>().cursor())
      yield toItem(doc);
  }

  /** Kept figures of a page of accounts' email domains (lower-cased). */
  async domainFigures(orgId: string, domains: string[]): Promise<Map<string, CellFigures>> {
    const cells = await this.counts.byRefs(domains.map((key) => ({ scope: 'domain', orgId, key })));
    return new Map(cells.map((cell) => [cell.key, { c: cell.c, newest: cell.newest ?? null }]));
  }

  /** Feedback count and newest publishedDate per author email, for a page of contacts, from the kept counts. */
  async statsByEmail(orgId: string, emails: string[]): Promise<Map<string, AuthorStats>> {
    const wanted = [...new Set(emails.map((email) => email.toLowerCase()))];
    const stats = new Map<string, AuthorStats>(wanted.map((email) => [email, { count: 0, lastPublished: null }]));
    for (const cell of await this.counts.byRefs(wanted.map((key) => ({ scope: 'email', orgId, key })))) {
      const count = cellCount(cell);
      stats.set(cell.key, { count, lastPublished: count > 0 ? (cell.newest ?? null) : null });
    }
    return stats;
  }
}
