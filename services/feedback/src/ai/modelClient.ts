import type { AiMetrics, ModelOperation } from './aiMetrics';
import { ModelUnavailable, RETRIED } from './modelFailure';
import { estimatedTokens, type TokenBudget } from './tokenBudget';

export interface ModelClientOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  /** Texts per embeddings request. */
  embeddingBatch: number;
  budget: TokenBudget;
  metrics: AiMetrics;
  /** Tries of one request, the first included. */
  maxTries?: number;
  /** The first wait between two tries; doubled at each further one (with jitter) unless the server says Retry-After. */
  backoffMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

/** A JSON object the chat model is asked for: its JSON schema, and the most tokens its reply may take. */
export interface JsonReply {
  name: string;
  schema: Record<string, unknown>;
  maxTokens: number;
}

interface Usage {
  prompt: number;
  completion: number;
}

const DEFAULT_TRIES = 3;
const DEFAULT_BACKOFF_MS = 500;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Retry-After in ms from now: delay-seconds or an HTTP date (RFC 9110 10.2.3); undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  if (/^\s*\d+\s*$/.test(header)) return Number(header) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function usageOf(body: Record<string, unknown>): Usage | null {
  const usage = body.usage;
  if (!isObject(usage)) return null;
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0);
  const prompt = count(usage.prompt_tokens);
  // Embedding servers report prompt_tokens (and total_tokens) only.
  const completion = count(usage.completion_tokens) || Math.max(0, count(usage.total_tokens) - prompt);
  return { prompt, completion };
}

function vectorsOf(body: Record<string, unknown>, count: number): Float32Array[] {
  const data = body.data;
  if (!Array.isArray(data) || data.length !== count)
    throw new ModelUnavailable('malformed', `embeddings: expected ${count} vectors in data`);
  const vectors: Float32Array[] = new Array<Float32Array>(count);
  data.forEach((entry: unknown, position) => {
    const index = isObject(entry) && typeof entry.index === 'number' ? entry.index : position;
    const embedding = isObject(entry) ? entry.embedding : undefined;
    if (
      !Number.isInteger(index) ||
      index < 0 ||
      index >= count ||
      vectors[index] ||
      !Array.isArray(embedding) ||
      embedding.length === 0 ||
      !embedding.every((x) => typeof x === 'number' && Number.isFinite(x))
    )
      throw new ModelUnavailable('malformed', 'embeddings: an entry of data is not a vector of numbers');
    vectors[index] = Float32Array.from(embedding as number[]);
  });
  if (vectors.some((vector) => vector.length !== vectors[0].length))
    throw new ModelUnavailable('malformed', 'embeddings: vectors of different lengths');
  return vectors;
}

function contentOf(body: Record<string, unknown>): Record<string, unknown> {
  const choice: unknown = Array.isArray(body.choices) ? body.choices[0] : undefined;
  const content = isObject(choice) && isObject(choice.message) ? choice.message.content : undefined;
  if (typeof content !== 'string') throw new ModelUnavailable('malformed', 'chat: no message content in the reply');
  let parsed: unknown;
  try {
    // Some servers wrap the object in a Markdown code fence even when a schema is asked for.
    parsed = JSON.parse(content.replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, ''));
  } catch {
    throw new ModelUnavailable('malformed', 'chat: the message content is not JSON');
  }
  if (!isObject(parsed)) throw new ModelUnavailable('malformed', 'chat: the message content is not a JSON object');
  return parsed;
}

/**
 * The one client of a model server speaking the OpenAI wire format (`POST {base}/embeddings`,
 * `POST {base}/chat/completions`). Every request has a time limit (AI_TIMEOUT_MS) and is tried at most
 * three times, again only after a connection error, a 429 or a 5xx, waiting what the server's
 * Retry-After says or a doubling backoff. A Retry-After longer than the time limit is not waited for:
 * the call fails at once, and so does every call until then, so a rate-limited server is left alone.
 * Each call first reserves the organization's tokens (see TokenBudget). Failures are ModelUnavailable.
 */
export class ModelClient {
  private pausedUntil = 0;
  private readonly maxTries: number;
  private readonly backoffMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: ModelClientOptions) {
    this.maxTries = options.maxTries ?? DEFAULT_TRIES;
    this.backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? wait;
  }

  /** Vectors of `texts`, in their order, sent in batches of AI_EMBEDDING_BATCH (one failed batch fails the call). */
  async embed(orgId: string, model: string, texts: readonly string[]): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.options.embeddingBatch) {
      const batch = texts.slice(start, start + this.options.embeddingBatch);
      const reserved = batch.reduce((sum, text) => sum + estimatedTokens(text), 0);
      const request = { model, input: batch };
      vectors.push(
        ...(await this.call(orgId, model, 'embeddings', request, reserved, (body) => vectorsOf(body, batch.length))),
      );
    }
    return vectors;
  }

  /**
   * The JSON object the chat model answers to `messages`, asked for with `response_format` json_schema
   * (temperature 0, at most `reply.maxTokens`). The caller reads the fields it knows and ignores the rest.
   */
  async chatJson(
    orgId: string,
    model: string,
    messages: readonly ChatMessage[],
    reply: JsonReply,
  ): Promise<Record<string, unknown>> {
    const request = {
      model,
      messages,
      temperature: 0,
      max_tokens: reply.maxTokens,
      response_format: { type: 'json_schema', json_schema: { name: reply.name, strict: true, schema: reply.schema } },
    };
    const reserved = messages.reduce((sum, message) => sum + estimatedTokens(message.content), 0) + reply.maxTokens;
    return this.call(orgId, model, 'chat', request, reserved, contentOf);
  }

  /** Sends `request` (tried again as the class says) and returns what `read` makes of the reply's body. */
  private async call<T>(
    orgId: string,
    model: string,
    operation: ModelOperation,
    request: Record<string, unknown>,
    reserved: number,
    read: (body: Record<string, unknown>) => T,
  ): Promise<T> {
    const started = this.now();
    const { metrics, budget } = this.options;
    const failed = (error: ModelUnavailable) => {
      metrics.failure(model, operation, error.reason);
      metrics.call(model, operation, error.reason, (this.now() - started) / 1000);
      return error;
    };
    if (this.now() < this.pausedUntil)
      throw failed(
        new ModelUnavailable('rate-limited', 'the model server asked to wait (Retry-After)', this.pausedUntil),
      );
    if (!(await budget.reserve(orgId, reserved)))
      throw failed(new ModelUnavailable('budget', "the organization's monthly tokens (AI_MONTHLY_TOKENS) are spent"));
    let used = reserved;
    try {
      for (let attempt = 1; ; attempt += 1) {
        try {
          const body = await this.send(operation, request);
          const usage = usageOf(body);
          if (usage) {
            used = usage.prompt + usage.completion;
            metrics.tokens(model, 'prompt', usage.prompt);
            metrics.tokens(model, 'completion', usage.completion);
          }
          const result = read(body);
          metrics.call(model, operation, 'ok', (this.now() - started) / 1000);
          return result;
        } catch (caught) {
          const error =
            caught instanceof ModelUnavailable ? caught : new ModelUnavailable('connection', (caught as Error).message);
          const delay = error.retryAt !== undefined ? error.retryAt - this.now() : undefined;
          const waitLonger = delay !== undefined && delay > this.options.timeoutMs;
          if (waitLonger) this.pausedUntil = Math.max(this.pausedUntil, error.retryAt!);
          if (!RETRIED.has(error.reason) || attempt >= this.maxTries || waitLonger) {
            metrics.call(model, operation, error.reason, (this.now() - started) / 1000);
            metrics.failure(model, operation, error.reason);
            throw error;
          }
          metrics.failure(model, operation, error.reason);
          const backoff = this.backoffMs * 2 ** (attempt - 1) * (0.5 + Math.random() / 2);
          await this.sleep(delay ?? backoff);
        }
      }
    } finally {
      await budget.settle(orgId, reserved, used);
    }
  }

  /** One try: the reply's JSON body, or ModelUnavailable saying why not. */
  private async send(operation: ModelOperation, request: Record<string, unknown>): Promise<Record<string, unknown>> {
    const path = operation === 'embeddings' ? '/embeddings' : '/chat/completions';
    let response: Response;
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    try {
      response = await fetch(`${this.options.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.options.apiKey}` },
        body: JSON.stringify(request),
        signal,
      });
    } catch (error) {
      throw signal.aborted
        ? new ModelUnavailable('timeout', `no answer within ${this.options.timeoutMs} ms`)
        : new ModelUnavailable('connection', `the model server cannot be reached (${(error as Error).message})`);
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw signal.aborted
        ? new ModelUnavailable('timeout', `the reply did not end within ${this.options.timeoutMs} ms`)
        : new ModelUnavailable('connection', `the reply was cut off (${(error as Error).message})`);
    }
    if (response.status === 429 || response.status >= 500) {
      const after = retryAfterMs(response.headers.get('retry-after'), this.now());
      throw new ModelUnavailable(
        response.status === 429 ? 'rate-limited' : 'server',
        `the model server answered ${response.status}`,
        after === undefined ? undefined : this.now() + after,
      );
    }
    if (!response.ok)
      throw new ModelUnavailable('rejected', `the model server answered ${response.status}: ${text.slice(0, 200)}`);
    try {
      const body: unknown = JSON.parse(text);
      if (isObject(body)) return body;
    } catch {
      // reported below
    }
    throw new ModelUnavailable('malformed', 'the reply is not a JSON object');
  }
}
