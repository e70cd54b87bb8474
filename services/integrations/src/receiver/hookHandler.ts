import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, jsonNestsDeeperThan, MAX_BODY_DEPTH, type Logger, type SecretBox } from '@fi/shared';
import { PUSH_CONNECTORS, type PushRequest } from '../connectors';
import type { ConnectionStore } from '../data/connectionStore';
import type { InboxStore } from '../data/inboxStore';
import { isConnectionToken, tokenHash } from '../domain/connectionTokens';
import { openCredentials } from '../domain/connections';
import { readRawBody } from './rawBody';

export const HOOK_PATH = /^\/hooks\/([^/?]+)$/;

const send = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
};

const error = (message: string) => ({ error: message });

function parseJson(raw: Buffer): unknown {
  const text = raw.toString('utf8');
  if (jsonNestsDeeperThan(text, MAX_BODY_DEPTH))
    throw new HttpError(400, `Request body is nested deeper than ${MAX_BODY_DEPTH} levels`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, 'Malformed JSON body');
  }
}

/**
 * POST /hooks/<token>: a platform's event for one connection. In order: the token names an active push
 * connection (else 404), the body is within the limit (else 413), its signature over the raw bytes holds
 * with that connection's secret and is fresh (else 401, nothing stored), it is JSON (else 400); then its
 * events are stored in the inbox (a redelivery once) and answered 2xx, and the worker makes the items.
 */
export function hookHandler(deps: {
  connections: ConnectionStore;
  inbox: InboxStore;
  box: SecretBox;
  maxBytes: number;
  logger: Logger;
}) {
  return async (req: IncomingMessage, res: ServerResponse, token: string): Promise<void> => {
    if (req.method !== 'POST') throw new HttpError(405, 'Only POST is accepted here', { allow: 'POST' });
    const connection = isConnectionToken(token) ? await deps.connections.findByTokenHash(tokenHash(token)) : null;
    const connector = connection ? PUSH_CONNECTORS[connection.kind] : undefined;
    if (!connection || !connector) {
      send(res, 404, error('No such integration'));
      return;
    }
    const rawBody = await readRawBody(req, deps.maxBytes);
    const request: PushRequest = { rawBody, headers: req.headers, now: new Date() };
    const verification = connector.verify(request, openCredentials(deps.box, connection));
    if (!verification.ok) {
      deps.logger.warn({ integrationId: connection.id, reason: verification.reason }, 'event refused: bad signature');
      send(res, 401, error('Invalid or missing signature'));
      return;
    }
    const received = connector.receive(parseJson(rawBody), request);
    // A paused connection acknowledges what it is sent (platforms disable endpoints that keep failing) and keeps nothing.
    if (connection.status === 'paused') {
      send(res, 200, { received: 0, paused: true });
      return;
    }
    let stored = 0;
    for (const event of received.events)
      if ((await deps.inbox.store(connection, event, request.now)).stored) stored += 1;
    if (received.events.length > 0) await deps.connections.recordEvent(connection.id, request.now);
    if (received.answer !== undefined) send(res, 200, received.answer);
    else send(res, 200, { received: received.events.length, stored });
  };
}
