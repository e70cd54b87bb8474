import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type HubSpotObjectType = 'contacts' | 'companies';

/** A CRM record as the search API returns it. */
export interface HubSpotObject {
  id: string;
  properties: Record<string, string | null>;
  createdAt: string;
  updatedAt: string;
  archived: boolean;
}

export interface HubSpotRequest {
  objectType: string;
  body: { filterGroups?: unknown; sorts?: unknown; properties?: string[]; limit?: number; after?: string };
  authorization: string | undefined;
  at: number;
  status: number;
}

/** The property each object type is searched and sorted by, as HubSpot names it. */
export const MODIFIED_PROPERTY: Record<HubSpotObjectType, string> = {
  contacts: 'lastmodifieddate',
  companies: 'hs_lastmodifieddate',
};

/** HubSpot refuses to page a search beyond this many results. */
const SEARCH_WINDOW = 10_000;

interface Portal {
  token: string;
  objects: Record<HubSpotObjectType, HubSpotObject[]>;
  rateLimited: Array<number | null>;
}

/**
 * A HubSpot-speaking server on 127.0.0.1 (one portal per private app token): the CRM search API,
 * `POST /crm/v3/objects/{contacts|companies}/search` with a `GTE` filter on the last-modified property,
 * sorted by it ascending, `limit` (at most 200) and `after` (an earlier answer's `paging.next.after`);
 * like HubSpot it answers 400 past 10,000 results of one search, 401 without the portal's token, and
 * 429 (with or without Retry-After) when a test says so.
 */
export class HubSpotServer {
  readonly requests: HubSpotRequest[] = [];
  private readonly portals = new Map<string, Portal>();

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(): Promise<HubSpotServer> {
    let hubspot: HubSpotServer | undefined = undefined;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => hubspot?.handle(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    hubspot = new HubSpotServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return hubspot;
  }

  portal(token: string): void {
    this.portals.set(token, { token, objects: { contacts: [], companies: [] }, rateLimited: [] });
  }

  /** Adds (or, for an existing id, modifies) a record, modified at `modifiedAt`. */
  put(token: string, type: HubSpotObjectType, id: string, properties: Record<string, string>, modifiedAt: Date): void {
    const list = this.portalOf(token).objects[type];
    const existing = list.findIndex((object) => object.id === id);
    const at = modifiedAt.toISOString();
    const object: HubSpotObject = {
      id,
      properties: {
        ...(existing >= 0 ? list[existing].properties : {}),
        ...properties,
        hs_object_id: id,
        [MODIFIED_PROPERTY[type]]: at,
      },
      createdAt: existing >= 0 ? list[existing].createdAt : at,
      updatedAt: at,
      archived: false,
    };
    if (existing >= 0) list.splice(existing, 1);
    list.push(object);
  }

  /** The next searches of the portal are answered 429, each with this Retry-After in seconds (null: none). */
  rateLimit(token: string, retryAfterSeconds: Array<number | null>): void {
    this.portalOf(token).rateLimited.push(...retryAfterSeconds);
  }

  private portalOf(token: string): Portal {
    const portal = this.portals.get(token);
    if (!portal) throw new Error('no such HubSpot portal');
    return portal;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse, text: string): void {
    const match = /^\/crm\/v3\/objects\/([a-z]+)\/search$/.exec(req.url ?? '');
    let body: HubSpotRequest['body'] = {};
    try {
      body = JSON.parse(text || '{}') as HubSpotRequest['body'];
    } catch {
      // answered 400 below
    }
    const record = { objectType: match?.[1] ?? '', body, authorization: req.headers.authorization, at: Date.now() };
    const json = (status: number, value: unknown, headers: Record<string, string> = {}): void => {
      this.requests.push({ ...record, status });
      res
        .writeHead(status, { 'content-type': 'application/json;charset=utf-8', ...headers })
        .end(JSON.stringify(value));
    };
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const portal = token ? this.portals.get(token) : undefined;
    if (!portal)
      return json(401, {
        status: 'error',
        category: 'INVALID_AUTHENTICATION',
        message: 'Authentication credentials not found.',
      });
    const limited = portal.rateLimited.shift();
    if (limited !== undefined)
      return json(
        429,
        { status: 'error', category: 'RATE_LIMITS', message: 'You have reached your secondly limit.' },
        limited === null ? {} : { 'retry-after': String(limited) },
      );
    if (req.method !== 'POST' || !match || !(match[1] in MODIFIED_PROPERTY))
      return json(404, { status: 'error', message: 'Not found' });
    const type = match[1] as HubSpotObjectType;
    const filters =
      (
        body.filterGroups as
          Array<{ filters: Array<{ propertyName: string; operator: string; value: string }> }> | undefined
      )?.[0]?.filters ?? [];
    const gte = filters.find((filter) => filter.propertyName === MODIFIED_PROPERTY[type] && filter.operator === 'GTE');
    const since = gte ? Number(gte.value) : 0;
    const limit = Math.min(200, body.limit ?? 10);
    const after = Number(body.after ?? 0);
    if (!Number.isInteger(after) || after < 0 || !Number.isInteger(since))
      return json(400, { status: 'error', category: 'VALIDATION_ERROR', message: 'Invalid input' });
    if (after + limit > SEARCH_WINDOW)
      return json(400, { status: 'error', category: 'VALIDATION_ERROR', message: 'Cannot page beyond 10000 results' });
    const modified = (object: HubSpotObject) => Date.parse(object.properties[MODIFIED_PROPERTY[type]] as string);
    const found = portal.objects[type]
      .filter((object) => modified(object) >= since)
      .sort((a, b) => modified(a) - modified(b) || Number(a.id) - Number(b.id));
    const results = found.slice(after, after + limit).map((object) => ({
      ...object,
      properties: Object.fromEntries(
        [...(body.properties ?? []), 'hs_object_id', MODIFIED_PROPERTY[type]].map((name) => [
          name,
          object.properties[name] ?? null,
        ]),
      ),
    }));
    json(200, {
      total: found.length,
      results,
      ...(after + limit < found.length ? { paging: { next: { after: String(after + limit) } } } : {}),
    });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
