import type { IncomingHttpHeaders } from 'node:http';
import { isPlainObject } from '@fi/shared';
import type { Connection, Credentials } from '../model/connection';
import type { InboxEvent, ReceivedEvent } from '../model/inboxEvent';
import type { NewItem } from '../ports';

/** A platform's request to a connection's URL, as it came: the raw bytes are what signatures cover. */
export interface PushRequest {
  rawBody: Buffer;
  headers: IncomingHttpHeaders;
  now: Date;
}

export type Verification = { ok: true } | { ok: false; reason: string };

/** What a verified body holds: the events to store, and an answer when the platform expects one at once. */
export interface Received {
  events: ReceivedEvent[];
  /** A JSON answer instead of the plain acknowledgement (Slack's url_verification challenge). */
  answer?: unknown;
}

/** The receiving half of a push platform: checks a request, and reads what it holds (nothing is made yet). */
export interface PushConnector {
  /** Checks the platform's signature over the raw body with the connection's secret, and its age. */
  verify(request: PushRequest, credentials: Credentials): Verification;
  /** The events of a verified, parsed body; events of types it does not make items of are left out. */
  receive(payload: unknown, request: PushRequest): Received;
}

/** The item an event becomes, or why nothing is made of it. */
export type ItemOrIgnored = { item: NewItem } | { ignored: string };

/** Where the worker reaches platforms' APIs (configurable, so tests use local servers speaking them). */
export interface PlatformApis {
  slackApiUrl: string;
  timeoutMs: number;
}

export interface MakerContext {
  connection: Connection;
  credentials: Credentials;
  apis: PlatformApis;
}

/** The making half: turns a stored event into an item (the worker runs it, after the 2xx). */
export interface ItemMaker {
  toItem(event: InboxEvent, context: MakerContext): Promise<ItemOrIgnored>;
}

/** An object's field when it is an object, else an empty one: platforms' payloads are read defensively. */
export function objectAt(value: unknown, key: string): Record<string, unknown> {
  const field = isPlainObject(value) ? value[key] : undefined;
  return isPlainObject(field) ? field : {};
}

/** An object's field when it is a non-blank string (a number is taken as its digits: platforms' ids). */
export function textAt(value: unknown, key: string): string | undefined {
  const field = isPlainObject(value) ? value[key] : undefined;
  if (typeof field === 'number' && Number.isFinite(field)) return String(field);
  return typeof field === 'string' && field.trim() !== '' ? field : undefined;
}

/** A header's single value (the first when repeated). */
export function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
