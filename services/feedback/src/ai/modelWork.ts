import { runPasses, type Logger, type WakeableWorker } from '@fi/shared';
import { modelMayRead, SENTIMENTS, type Sentiment } from '../core';
import { idSecondsBefore, type AiStore, type ModelItem } from './data/aiStore';
import type { AiSettings } from './aiSettings';
import type { ModelClient } from './modelClient';
import { ModelUnavailable } from './modelFailure';

/** Items read per pass: new ones after the pass's position, and as many of those a failure left. */
const PAGE = 500;
/** Ids made by other processes in the same seconds need not be written in id order: each pass reads this far back again. */
const OVERLAP_SECONDS = 10;
/**
 * An item the model could not do waits this many passes when the server named no time (Retry-After):
 * a failing server is asked again about every half minute at the default interval, and a spent budget
 * costs only a look at the organization's month.
 */
const PASSES_AFTER_FAILURE = 6;
/** Ids this instance did lately, so the overlap does not send them again (cleared when it grows past this). */
const MAX_RECENT = 10_000;

/** How an item's sentiment is given once the chat model read it (the core's rule: see setModelSentiment). */
export type SentimentWriter = (orgId: string, itemId: string, sentiment: Sentiment) => Promise<unknown>;

/** One use of a model over every item: what it does to an organization's items, in chunks. */
interface ModelPass {
  /** `<use>:<model>`: a new model starts again from the first item. */
  key: string;
  /** Whether the item needs the model (false: it is done without a request). */
  needs(items: ModelItem[]): Promise<ModelItem[]>;
  /** Items sent together (the client batches embeddings itself). */
  chunk: number;
  run(orgId: string, items: ModelItem[]): Promise<void>;
}

const SENTIMENT_PROMPT =
  'You read one piece of customer feedback about a software product (its title, then its text). ' +
  'Answer with a JSON object {"sentiment": "positive" | "neutral" | "negative"}: how the customer who wrote it feels.';

const SENTIMENT_REPLY = {
  name: 'feedback_sentiment',
  schema: {
    type: 'object',
    properties: { sentiment: { type: 'string', enum: [...SENTIMENTS] } },
    required: ['sentiment'],
    additionalProperties: false,
  },
  maxTokens: 20,
};

/** What a model reads of an item: its title and its text, nothing else (docs/ai.md). */
export const modelText = (item: Pick<ModelItem, 'title' | 'content'>) => `${item.title}\n\n${item.content}`;

function embeddingPass(store: AiStore, client: ModelClient, model: string): ModelPass {
  return {
    key: `embeddings:${model}`,
    async needs(items) {
      const done = await store.withVector(
        model,
        items.map((item) => item.id),
      );
      return items.filter((item) => !done.has(item.id));
    },
    chunk: Number.MAX_SAFE_INTEGER,
    async run(orgId, items) {
      const vectors = await client.embed(orgId, model, items.map(modelText));
      await store.putVectors(
        orgId,
        model,
        items.map((item, i) => ({ id: item.id, vector: vectors[i] })),
      );
    },
  };
}

function sentimentPass(client: ModelClient, model: string, write: SentimentWriter): ModelPass {
  return {
    key: `sentiment:${model}`,
    needs: (items) => Promise.resolve(items.filter((item) => modelMayRead(item) && item.sentimentSource !== 'model')),
    chunk: 1,
    async run(orgId, [item]) {
      const messages = [
        { role: 'system' as const, content: SENTIMENT_PROMPT },
        { role: 'user' as const, content: modelText(item) },
      ];
      const reply = await client.chatJson(orgId, model, messages, SENTIMENT_REPLY);
      // Only the field asked for is read; without it (or with another value) the local reading stays.
      const sentiment = reply.sentiment;
      if ((SENTIMENTS as readonly unknown[]).includes(sentiment)) await write(orgId, item.id, sentiment as Sentiment);
    },
  };
}

/**
 * The background work of the configured models (see docs/ai.md): each pass goes over every item in `_id`
 * order from where it stopped, embeds it (title and text) and has the chat model read its sentiment, at
 * most AI_ITEMS_PER_MINUTE items of an organization a minute. An item the model could not do now (the
 * server failed or was slow, the organization's tokens are spent, or it is over the rate) waits in the
 * pending items until it is due, then goes again: nothing is lost, and no write of an item waits for a
 * model. Two instances may send an item twice (its vector or sentiment is written the same): the cost
 * of a few tokens rather than a lease.
 */
export function startModelWork(
  store: AiStore,
  client: ModelClient,
  settings: AiSettings,
  writeSentiment: SentimentWriter,
  logger: Logger,
): WakeableWorker | null {
  const passes: ModelPass[] = [];
  if (settings.embeddingModel) passes.push(embeddingPass(store, client, settings.embeddingModel));
  if (settings.chatModel && settings.uses.has('sentiment'))
    passes.push(sentimentPass(client, settings.chatModel, writeSentiment));
  if (passes.length === 0 || settings.intervalMs === 0) return null;
  const perOrganization = Math.max(1, Math.floor((settings.itemsPerMinute * settings.intervalMs) / 60_000));
  const recent = new Map<string, Set<string>>(passes.map((pass) => [pass.key, new Set()]));

  const runPass = async (pass: ModelPass, closed: () => boolean) => {
    const now = new Date();
    const done = recent.get(pass.key)!;
    if (done.size > MAX_RECENT) done.clear();
    const due = await store.due(pass.key, now, PAGE);
    const position = await store.positionOf(pass.key);
    const [waiting, fresh, late] = await Promise.all([
      store.itemsByIds(due),
      store.itemsAfter(position, PAGE),
      position ? store.itemsAfter(idSecondsBefore(position, OVERLAP_SECONDS), PAGE, position) : Promise.resolve([]),
    ]);
    const seen = new Set<string>();
    const candidates = [...waiting, ...late.filter((item) => !done.has(item.id)), ...fresh].filter(
      (item) => !seen.has(item.id) && seen.add(item.id),
    );
    const needed = new Set((await pass.needs(candidates)).map((item) => item.id));
    // Due items that are gone or need nothing leave the pending items.
    await store.done(
      pass.key,
      due.filter((id) => !needed.has(id)),
    );
    const byOrganization = new Map<string, ModelItem[]>();
    for (const item of candidates)
      if (needed.has(item.id)) byOrganization.set(item.orgId, [...(byOrganization.get(item.orgId) ?? []), item]);
    for (const [orgId, items] of byOrganization) {
      if (closed()) {
        await store.postpone(pass.key, items, now);
        continue;
      }
      const sendable = items.slice(0, perOrganization);
      await store.postpone(pass.key, items.slice(perOrganization), new Date(now.getTime() + settings.intervalMs));
      for (let start = 0; start < sendable.length; start += pass.chunk) {
        const chunk = sendable.slice(start, start + pass.chunk);
        try {
          await pass.run(orgId, chunk);
          for (const item of chunk) done.add(item.id);
          await store.done(
            pass.key,
            chunk.map((item) => item.id),
          );
        } catch (error) {
          const rest = sendable.slice(start);
          const retryAt =
            (error instanceof ModelUnavailable ? error.retryAt : undefined) ??
            now.getTime() + PASSES_AFTER_FAILURE * settings.intervalMs;
          await store.postpone(pass.key, rest, new Date(retryAt));
          if (!(error instanceof ModelUnavailable)) throw error;
          logger.warn(
            { orgId, pass: pass.key, reason: error.reason, items: rest.length },
            `model did not answer (${error.message}): the items are done again later`,
          );
          break;
        }
      }
    }
    if (fresh.length > 0) await store.setPosition(pass.key, fresh[fresh.length - 1].id);
  };

  return runPasses(
    settings.intervalMs,
    async (closed) => {
      for (const pass of passes) if (!closed()) await runPass(pass, closed);
    },
    (error) => logger.warn({ err: error }, 'model work failed: the items are done again at the next pass'),
  );
}
