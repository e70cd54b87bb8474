import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A ticket as the Incremental Ticket Export lists it (the fields the connector reads, and a few more). */
export interface ZendeskTicket {
  id: number;
  subject: string;
  description: string;
  status: string;
  requester_id: number;
  created_at: string;
  updated_at: string;
  tags: string[];
  via: { channel: string };
}

export interface ZendeskUser {
  id: number;
  name: string;
  email: string;
}

/** One request the server received. */
export interface ZendeskRequest {
  subdomain: string;
  path: string;
  query: Record<string, string>;
  authorization: string | undefined;
  at: number;
  status: number;
}

interface Account {
  token: string;
  tickets: ZendeskTicket[];
  users: Map<number, ZendeskUser>;
  /** The next requests answered 429 with this Retry-After (seconds), after `answeredFirst` answered normally. */
  rateLimited: number[];
  answeredFirst: number;
}

/** Where a cursor points: after the ticket updated at `u` (seconds) with id `i`. */
const encodeCursor = (u: number, i: number) => Buffer.from(JSON.stringify({ u, i })).toString('base64url');
const decodeCursor = (cursor: string): { u: number; i: number } | null => {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { u: number; i: number };
    return Number.isInteger(value.u) && Number.isInteger(value.i) ? value : null;
  } catch {
    return null;
  }
};
const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/**
 * A Zendesk-speaking server on 127.0.0.1 for tests and the bench: each account (subdomain) is served under
 * `/<subdomain>` (give `<url>/{subdomain}` as the base URL) with Zendesk's cursor-based Incremental Ticket
 * Export, `GET /api/v2/incremental/tickets/cursor.json` with `start_time` (Unix seconds) on the first call
 * and `cursor` (an earlier answer's `after_cursor`) after it, `per_page` (at most 1000) and
 * `include=users` (the requesters, sideloaded). Pages are ordered by `updated_at` then id and carry
 * `after_cursor`, `after_url` and `end_of_stream` as Zendesk documents them; an account's API token is
 * required as a Bearer token (401 otherwise); a test can have the next requests answered 429 with a
 * Retry-After.
 */
export class ZendeskServer {
  readonly requests: ZendeskRequest[] = [];
  private readonly accounts = new Map<string, Account>();
  /** Export pages past this many are held unanswered (a sync stopped midway) until `answerHeld`. */
  private answerPages = Infinity;
  private readonly held: Array<{ res: http.ServerResponse; answer: () => void }> = [];

  private constructor(
    private readonly server: http.Server,
    /** `http://127.0.0.1:<port>/{subdomain}`: the connector's base URL template. */
    readonly baseUrl: string,
  ) {}

  static async start(): Promise<ZendeskServer> {
    let zendesk: ZendeskServer | undefined = undefined;
    const server = http.createServer((req, res) => zendesk?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    zendesk = new ZendeskServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/{subdomain}`);
    return zendesk;
  }

  account(subdomain: string, token: string): void {
    this.accounts.set(subdomain, { token, tickets: [], users: new Map(), rateLimited: [], answeredFirst: 0 });
  }

  /**
   * Adds `count` tickets, numbered on from the account's last, updated one second apart from `since` on,
   * each by one of ten requesters; returns them.
   */
  addTickets(subdomain: string, count: number, since: Date): ZendeskTicket[] {
    const account = this.accountOf(subdomain);
    const first = (account.tickets.at(-1)?.id ?? 0) + 1;
    const added: ZendeskTicket[] = [];
    for (let n = 0; n < count; n += 1) {
      const id = first + n;
      const requester = 1000 + (id % 10);
      account.users.set(requester, {
        id: requester,
        name: `Requester ${requester}`,
        email: `r${requester}@${subdomain}.example`,
      });
      const at = new Date(since.getTime() + n * 1000).toISOString();
      added.push({
        id,
        subject: `Ticket ${id} of ${subdomain}`,
        description: `The export of report ${id} fails for ${subdomain}.`,
        status: 'open',
        requester_id: requester,
        created_at: at,
        updated_at: at,
        tags: ['export'],
        via: { channel: 'email' },
      });
    }
    account.tickets.push(...added);
    return added;
  }

  /**
   * The next requests to `subdomain`, after `answeredFirst` answered as usual, are answered 429 with these
   * Retry-After values (seconds), in turn.
   */
  rateLimit(subdomain: string, retryAfterSeconds: number[], answeredFirst = 0): void {
    const account = this.accountOf(subdomain);
    account.rateLimited.push(...retryAfterSeconds);
    account.answeredFirst = answeredFirst;
  }

  requestsOf(subdomain: string): ZendeskRequest[] {
    return this.requests.filter((request) => request.subdomain === subdomain);
  }

  private accountOf(subdomain: string): Account {
    const account = this.accounts.get(subdomain);
    if (!account) throw new Error(`no Zendesk account ${subdomain}`);
    return account;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://zendesk.test');
    const [, subdomain, ...rest] = url.pathname.split('/');
    const path = `/${rest.join('/')}`;
    const query = Object.fromEntries(url.searchParams);
    const record = { subdomain, path, query, authorization: req.headers.authorization, at: Date.now() };
    const json = (status: number, value: unknown, headers: Record<string, string> = {}): void => {
      this.requests.push({ ...record, status });
      res
        .writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers })
        .end(JSON.stringify(value));
    };
    const account = this.accounts.get(subdomain);
    if (!account) return json(404, { error: 'InvalidEndpoint' });
    if (req.headers.authorization !== `Bearer ${account.token}`)
      return json(401, { error: "Couldn't authenticate you" });
    const retryAfter = account.answeredFirst > 0 ? undefined : account.rateLimited.shift();
    account.answeredFirst = Math.max(0, account.answeredFirst - 1);
    if (retryAfter !== undefined)
      return json(429, { error: 'APIRateLimitExceeded' }, { 'retry-after': String(retryAfter) });
    if (req.method !== 'GET' || path !== '/api/v2/incremental/tickets/cursor.json')
      return json(404, { error: 'InvalidEndpoint' });
    const perPage = Math.min(1000, Number(query.per_page ?? 1000));
    let from: { u: number; i: number };
    if (query.cursor) {
      const cursor = decodeCursor(query.cursor);
      if (!cursor) return json(400, { error: 'InvalidCursor', description: 'Invalid cursor' });
      from = cursor;
    } else if (/^\d+$/.test(query.start_time ?? '')) {
      from = { u: Number(query.start_time), i: -1 };
    } else {
      return json(400, { error: 'InvalidValue', description: 'start_time or cursor is required' });
    }
    const after = account.tickets.filter((ticket) => {
      const u = seconds(ticket.updated_at);
      return u > from.u || (u === from.u && ticket.id > from.i);
    });
    const tickets = after.slice(0, perPage);
    const last = tickets.at(-1);
    const afterCursor = last
      ? encodeCursor(seconds(last.updated_at), last.id)
      : (query.cursor ?? encodeCursor(from.u, from.i));
    const base = `http://${req.headers.host}/${subdomain}/api/v2/incremental/tickets/cursor.json`;
    const body = {
      tickets,
      ...(query.include === 'users'
        ? { users: [...new Set(tickets.map((ticket) => ticket.requester_id))].map((id) => account.users.get(id)) }
        : {}),
      after_url: `${base}?cursor=${afterCursor}`,
      after_cursor: afterCursor,
      before_url: null,
      before_cursor: null,
      end_of_stream: after.length <= perPage,
    };
    if (this.requests.filter((request) => request.status === 200).length + this.held.length >= this.answerPages) {
      this.held.push({ res, answer: () => json(200, body) });
      return;
    }
    json(200, body);
  }

  /** Answers the next `pages` export pages (of any account), then holds every later one until `answerHeld`. */
  holdAfter(pages: number): void {
    this.answerPages = this.requests.filter((request) => request.status === 200).length + pages;
  }

  /** Export pages held now: a sync is waiting on the page after them. */
  get holding(): number {
    return this.held.length;
  }

  /** Answers the held pages (those whose client is gone are dropped) and holds no more. */
  answerHeld(): void {
    this.answerPages = Infinity;
    for (const { res, answer } of this.held.splice(0))
      if (!res.destroyed && res.socket && !res.socket.destroyed) answer();
  }

  async close(): Promise<void> {
    for (const { res } of this.held.splice(0)) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
