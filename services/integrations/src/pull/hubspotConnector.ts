import { platformCall } from './platformErrors';
import {
  emptyBatch,
  type PullConnection,
  type PullConnector,
  type PulledAccount,
  type PulledContact,
} from './pullTypes';

type Stream = 'companies' | 'contacts';

/** Companies first, so a contact's company is in the accounts before the contact arrives. */
const STREAMS: Stream[] = ['companies', 'contacts'];
const MODIFIED: Record<Stream, string> = { contacts: 'lastmodifieddate', companies: 'hs_lastmodifieddate' };
const PROPERTIES: Record<Stream, string[]> = {
  contacts: ['firstname', 'lastname', 'email', 'phone', 'company', 'jobtitle', 'city', 'country'],
  companies: ['name', 'domain', 'description', 'website'],
};
/** HubSpot's search pages no further than this many results: past it, a new search starts from the last date seen. */
const SEARCH_WINDOW = 10_000;

/** Where each stream stands: searched from `since` (ms), at page `after` of that search, newest date seen `seen`. */
interface StreamPosition {
  since: number;
  after: number;
  seen: number;
}
interface HubSpotCursor {
  stream: Stream;
  positions: Record<Stream, StreamPosition>;
}

interface SearchAnswer {
  results: Array<{ id: string; properties: Record<string, string | null> }>;
  paging?: { next?: { after: string } };
}

export interface HubSpotOptions {
  /** `https://api.hubapi.com` in production; a local HubSpot-speaking server in tests. */
  baseUrl: string;
  /** Records per search page (HubSpot's maximum is 200). */
  pageSize: number;
  timeoutMs: number;
}

const text = (value: string | null | undefined) => value?.trim() || null;

function contactOf(id: string, p: Record<string, string | null>): PulledContact {
  const email = text(p.email)?.toLowerCase() ?? null;
  return {
    externalId: id,
    name: [text(p.firstname), text(p.lastname)].filter(Boolean).join(' ') || email || `HubSpot contact ${id}`,
    email,
    phone: text(p.phone),
    company: text(p.company),
    title: text(p.jobtitle),
    location: [text(p.city), text(p.country)].filter(Boolean).join(', ') || null,
  };
}

function accountOf(id: string, p: Record<string, string | null>): PulledAccount {
  const domain = text(p.domain)?.toLowerCase() ?? null;
  return {
    externalId: id,
    name: text(p.name) ?? domain ?? `HubSpot company ${id}`,
    domain,
    description: text(p.description),
    website: text(p.website),
  };
}

function parseCursor(cursor: string | null, start: number): HubSpotCursor {
  if (cursor) {
    try {
      return JSON.parse(cursor) as HubSpotCursor;
    } catch {
      // An unreadable cursor (never written by this code) starts over from the window: records are matched, not duplicated.
    }
  }
  const fresh = { since: start, after: 0, seen: start };
  return { stream: STREAMS[0], positions: { companies: { ...fresh }, contacts: { ...fresh } } };
}

/**
 * HubSpot companies into accounts and contacts into contacts, through the CRM search API by last
 * modification date: each stream is searched from the newest date the previous sync saw (the first sync
 * from `backfillDays` back), page by page; a search that reaches HubSpot's 10,000-result window starts a
 * new one from the newest date seen. Records modified at that very millisecond come again, and are
 * matched, not duplicated.
 */
export function hubspotConnector(options: HubSpotOptions): PullConnector {
  return {
    async page(connection: PullConnection, cursor: string | null, now: Date) {
      const state = parseCursor(cursor, now.getTime() - connection.backfillDays * 86_400_000);
      const stream = state.stream;
      const position = state.positions[stream];
      const answer = await platformCall<SearchAnswer>(
        'HubSpot',
        `${options.baseUrl}/crm/v3/objects/${stream}/search`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${connection.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            filterGroups: [
              { filters: [{ propertyName: MODIFIED[stream], operator: 'GTE', value: String(position.since) }] },
            ],
            sorts: [{ propertyName: MODIFIED[stream], direction: 'ASCENDING' }],
            properties: PROPERTIES[stream],
            limit: options.pageSize,
            ...(position.after > 0 ? { after: String(position.after) } : {}),
          }),
        },
        { timeoutMs: options.timeoutMs, rateLimitFallbackMs: 10_000 },
      );
      const batch = emptyBatch();
      for (const { id, properties } of answer.results) {
        if (stream === 'contacts') batch.contacts.push(contactOf(id, properties));
        else batch.accounts.push(accountOf(id, properties));
        const modified = Date.parse(properties[MODIFIED[stream]] ?? '');
        if (!Number.isNaN(modified)) position.seen = Math.max(position.seen, modified);
      }
      const next = Number(answer.paging?.next?.after ?? 0);
      let endOfStream = false;
      if (next > 0 && next + options.pageSize <= SEARCH_WINDOW) {
        position.after = next;
      } else if (next > 0) {
        // The window is full: a new search from the newest date seen.
        Object.assign(position, { since: position.seen, after: 0 });
      } else {
        Object.assign(position, { since: position.seen, after: 0 });
        const following = STREAMS[STREAMS.indexOf(stream) + 1];
        endOfStream = !following;
        state.stream = following ?? STREAMS[0];
      }
      return { batch, cursor: JSON.stringify(state), endOfStream };
    },
  };
}
