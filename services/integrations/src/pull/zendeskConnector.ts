import { platformCall } from './platformErrors';
import { emptyBatch, type PullConnection, type PullConnector, type PulledItem } from './pullTypes';

interface ZendeskTicket {
  id: number;
  subject?: string | null;
  description?: string | null;
  status?: string;
  requester_id?: number | null;
  created_at: string;
  tags?: string[];
  via?: { channel?: string };
}

interface ZendeskExportPage {
  tickets: ZendeskTicket[];
  users?: Array<{ id: number; name?: string | null; email?: string | null }>;
  after_cursor: string | null;
  end_of_stream: boolean;
}

export interface ZendeskOptions {
  /** `https://{subdomain}.zendesk.com` in production; a local Zendesk-speaking server in tests. */
  baseUrl: string;
  /** Tickets per page (Zendesk's maximum is 1000). */
  pageSize: number;
  timeoutMs: number;
}

/**
 * Zendesk's API token as the connection stores it: an OAuth access token is sent as a Bearer token;
 * `<agent email>/token:<API token>` (Zendesk's form for API tokens) as Basic credentials.
 */
function authorization(token: string): string {
  return /^[^/\s]+@[^/\s]+\/token:/.test(token) ? `Basic ${Buffer.from(token).toString('base64')}` : `Bearer ${token}`;
}

const firstLine = (text: string) => text.split('\n', 1)[0].trim().slice(0, 200);

/**
 * Zendesk's cursor-based Incremental Ticket Export: the first sync starts `backfillDays` back
 * (`start_time`), every later page from the saved `after_cursor`; requesters come sideloaded
 * (`include=users`). Deleted tickets are skipped; a ticket updated again arrives again and is made an
 * item once (its id is the external id).
 */
export function zendeskConnector(options: ZendeskOptions): PullConnector {
  return {
    async page(connection: PullConnection, cursor: string | null, now: Date) {
      const subdomain = connection.subdomain ?? '';
      const base = options.baseUrl.replace('{subdomain}', subdomain);
      const query = new URLSearchParams({ per_page: String(options.pageSize), include: 'users' });
      if (cursor) query.set('cursor', cursor);
      // Zendesk refuses a start_time less than a minute old.
      else
        query.set(
          'start_time',
          String(Math.floor((now.getTime() - Math.max(connection.backfillDays * 86_400_000, 60_000)) / 1000)),
        );
      const page = await platformCall<ZendeskExportPage>(
        'Zendesk',
        `${base}/api/v2/incremental/tickets/cursor.json?${query}`,
        { headers: { authorization: authorization(connection.token), accept: 'application/json' } },
        { timeoutMs: options.timeoutMs, rateLimitFallbackMs: 60_000 },
      );
      const users = new Map((page.users ?? []).map((user) => [user.id, user]));
      const items: PulledItem[] = page.tickets
        .filter((ticket) => ticket.status !== 'deleted')
        .map((ticket) => {
          const requester = ticket.requester_id ? users.get(ticket.requester_id) : undefined;
          const description = ticket.description?.trim() ?? '';
          const title = ticket.subject?.trim() || firstLine(description) || `Ticket #${ticket.id}`;
          return {
            source: 'zendesk',
            title,
            content: description || title,
            author: requester?.name ?? null,
            email: requester?.email?.toLowerCase() ?? null,
            externalId: String(ticket.id),
            publishedDate: new Date(ticket.created_at).toISOString(),
            metadata: {
              url: `https://${subdomain}.zendesk.com/agent/tickets/${ticket.id}`,
              ...(ticket.status ? { status: ticket.status } : {}),
              ...(ticket.via?.channel ? { channel: ticket.via.channel } : {}),
              ...(ticket.tags?.length ? { tags: ticket.tags } : {}),
            },
          };
        });
      return {
        batch: { ...emptyBatch(), items },
        // An empty last page may come without a cursor: the one we had still holds.
        cursor: page.after_cursor ?? cursor ?? '',
        endOfStream: page.end_of_stream,
      };
    },
  };
}
