import type { Logger, SecretBox } from '@fi/shared';
import { ITEM_MAKERS, type PlatformApis } from '../connectors';
import type { ConnectionStore } from '../data/connectionStore';
import type { InboxStore } from '../data/inboxStore';
import { openCredentials } from '../domain/connections';
import type { InboxEvent } from '../model/inboxEvent';
import { Refused, Unavailable, type FeedbackPort } from '../ports';

export interface InboxWorkerDeps {
  inbox: InboxStore;
  connections: ConnectionStore;
  box: SecretBox;
  feedback: FeedbackPort;
  apis: PlatformApis;
  logger: Logger;
}

export interface InboxWorkerOptions {
  pollMs: number;
  leaseMs: number;
  maxAttempts: number;
  /** Events worked on at once by this process. */
  concurrency: number;
}

/** Wait before the next attempt at an event a service could not take: 1 s, 2 s, 4 s... up to 5 minutes. */
const retryDelayMs = (attempts: number) => Math.min(300_000, 1_000 * 2 ** Math.max(0, attempts - 1));

/**
 * Makes one stored event's item: the connection's maker reads it, the feedback service's rules create it
 * (one item per external id, so an event worked on twice makes one). A refusal of the rules is the
 * connection's last error and the event's outcome; an unavailable service is retried with a back-off,
 * then recorded as failed after `maxAttempts`.
 */
export async function processEvent(deps: InboxWorkerDeps, event: InboxEvent, maxAttempts: number): Promise<void> {
  const connection = await deps.connections.findById(event.connectionId);
  if (!connection) return deps.inbox.finish(event.id, 'ignored', { detail: 'the integration was removed' });
  const maker = ITEM_MAKERS[connection.kind];
  if (!maker) return deps.inbox.finish(event.id, 'ignored', { detail: `nothing is made of ${connection.kind} events` });
  try {
    const credentials = openCredentials(deps.box, connection);
    const made = await maker.toItem(event, { connection, credentials, apis: deps.apis });
    if ('ignored' in made) return await deps.inbox.finish(event.id, 'ignored', { detail: made.ignored });
    const { itemId } = await deps.feedback.addItem(connection, made.item);
    await deps.inbox.finish(event.id, 'done', { itemId });
    await deps.connections.recordItem(connection.id, new Date());
  } catch (error) {
    if (error instanceof Refused) {
      const detail = `event ${event.deliveryKey} refused: ${error.message}`;
      await deps.inbox.finish(event.id, 'failed', { detail });
      await deps.connections.recordError(connection.id, detail, new Date());
      return;
    }
    const reason = error instanceof Unavailable ? error.message : 'internal error';
    if (!(error instanceof Unavailable))
      deps.logger.error({ err: error, eventId: event.id }, 'event processing failed');
    if (event.attempts >= maxAttempts) {
      const detail = `event ${event.deliveryKey} given up after ${event.attempts} attempts: ${reason}`;
      await deps.inbox.finish(event.id, 'failed', { detail });
      await deps.connections.recordError(connection.id, detail, new Date());
      return;
    }
    await deps.inbox.retryLater(event.id, retryDelayMs(event.attempts), reason);
  }
}

/**
 * Works the inbox: one loop takes pending events (each with a lease, so a worker that dies leaves them to
 * another after `leaseMs`) while fewer than `concurrency` are in hand, makes their items, and looks again
 * every `pollMs` when there is nothing to take.
 */
export function startInboxWorker(deps: InboxWorkerDeps, options: InboxWorkerOptions) {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let wakeUp: (() => void) | null = null;
  const inHand = new Set<Promise<void>>();

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      wakeUp = resolve;
      timer = setTimeout(resolve, ms);
    });

  const work = (event: InboxEvent) => {
    const done = processEvent(deps, event, options.maxAttempts)
      .catch((error: unknown) =>
        deps.logger.warn({ err: error, eventId: event.id }, 'event not finished; taken again after its lease'),
      )
      .finally(() => {
        inHand.delete(done);
        wakeUp?.();
      });
    inHand.add(done);
  };

  const loop = (async () => {
    while (!stopped) {
      if (inHand.size >= options.concurrency) {
        await Promise.race(inHand);
        continue;
      }
      let event: InboxEvent | null = null;
      try {
        event = await deps.inbox.take(options.leaseMs);
      } catch (error) {
        deps.logger.warn({ err: error }, 'could not read the inbox; retrying');
      }
      if (event) work(event);
      else if (!stopped) await pause(options.pollMs);
    }
    await Promise.all(inHand);
  })();

  return {
    /** Looks at once instead of at the next poll. */
    wake: () => wakeUp?.(),
    close: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      wakeUp?.();
      await loop;
    },
  };
}
