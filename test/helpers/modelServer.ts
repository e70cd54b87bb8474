import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the model server received. */
export interface ModelRequest {
  path: string;
  /** When it arrived (ms since the epoch). */
  at: number;
  authorization: string | undefined;
  body: Record<string, unknown>;
}

/**
 * How the server answers the next requests instead of its normal reply: 429 with a Retry-After (seconds),
 * 500, never (a hang), a body that is not JSON, or a chat reply whose object lacks the field asked for.
 */
export type ModelFault =
  | { kind: 'rate-limited'; retryAfterSeconds: number }
  | { kind: 'server-error' }
  | { kind: 'hang' }
  | { kind: 'malformed' }
  | { kind: 'no-field' };

/** Dimensions of the test vectors: enough that unrelated texts rarely share a bucket. */
const DIMENSIONS = 512;

/**
 * Words the test server reads as one concept, so a restatement in other words comes out close (what a
 * real embedding model does and the local method cannot): "invoice" and "bill" share a dimension.
 */
const CONCEPTS: Record<string, string> = {
  // Words no list of the local method knows, for tests that tell the model's vectors from it.
  blick: 'zorp',
  quell: 'frim',
  invoice: 'bill',
  invoices: 'bill',
  billing: 'bill',
  receipt: 'bill',
  receipts: 'bill',
  crash: 'freeze',
  crashes: 'freeze',
  freezes: 'freeze',
  hangs: 'freeze',
  stuck: 'freeze',
  phone: 'mobile',
  iphone: 'mobile',
  android: 'mobile',
};

const NEGATIVE = ['broken', 'fails', 'crash', 'crashes', 'freezes', 'slow', 'worst', 'angry', 'stuck', 'wrong'];
const POSITIVE = ['love', 'great', 'thanks', 'excellent', 'perfect', 'delighted'];

const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** A deterministic vector of a text: a hashed bag of its words (their concepts), of length 1. */
export function testVector(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  for (const word of wordsOf(text)) {
    if (word.length < 3) continue;
    const stem = word.replace(/s$/, '');
    const concept = CONCEPTS[word] ?? CONCEPTS[stem] ?? stem;
    vector[createHash('sha1').update(concept).digest().readUInt32BE(0) % DIMENSIONS] += 1;
  }
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0)) || 1;
  return vector.map((x) => x / norm);
}

/** The sentiment the test chat model reads in a text: by a few words, so tests can choose it. */
export function testSentiment(text: string): 'positive' | 'neutral' | 'negative' {
  const words = new Set(wordsOf(text));
  if (NEGATIVE.some((word) => words.has(word))) return 'negative';
  if (POSITIVE.some((word) => words.has(word))) return 'positive';
  return 'neutral';
}

/**
 * The name the test chat model gives a theme from its items (the last message): the concept of its most
 * frequent word of five letters or more, so tests can tell it from a local label.
 */
export function testThemeName(text: string): { label: string; summary: string } {
  const counts = new Map<string, number>();
  for (const word of wordsOf(text).filter((w) => w.length >= 4 && w !== 'item')) {
    const concept = CONCEPTS[word] ?? CONCEPTS[word.replace(/s$/, '')] ?? word.replace(/s$/, '');
    counts.set(concept, (counts.get(concept) ?? 0) + 1);
  }
  const [top] = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0] ?? ['feedback'];
  return { label: `Model: ${top} trouble`, summary: `Customers report ${top} trouble.` };
}

/**
 * A model server of our own on 127.0.0.1 speaking the OpenAI wire format, as Ollama, vLLM or OpenAI do:
 * `POST {url}/embeddings` answers `testVector` of each input, `POST {url}/chat/completions` a JSON object
 * `{"sentiment": ...}` read by `testSentiment` from the last message (or, asked for a theme's name by its
 * schema's name, `{"label", "summary"}` by `testThemeName`), both with a `usage`. It records
 * every request, and answers the next ones with the faults a test sets. Hanging requests are let go
 * when the server closes.
 */
export class ModelServer {
  readonly requests: ModelRequest[] = [];
  private faults: ModelFault[] = [];
  private always: ModelFault | null = null;
  private about: string | null = null;
  private to: string | null = null;
  private readonly hanging = new Set<http.ServerResponse>();

  private constructor(
    private readonly server: http.Server,
    /** The base URL to give as OPENAI_BASE_URL. */
    readonly url: string,
  ) {}

  static async start(): Promise<ModelServer> {
    let model: ModelServer | undefined = undefined;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => model?.handle(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    model = new ModelServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`);
    return model;
  }

  /**
   * The next requests get these faults, in turn; `always` (until `heal`) answers every later one. With
   * `about`, only requests whose body holds that text get them (others of other tests are answered); with
   * `to`, only requests of that operation.
   */
  fail(
    faults: ModelFault[],
    options: { always?: ModelFault; about?: string; to?: 'embeddings' | 'chat/completions' } = {},
  ): void {
    this.faults = [...faults];
    this.always = options.always ?? null;
    this.about = options.about ?? null;
    this.to = options.to ?? null;
  }

  heal(): void {
    this.faults = [];
    this.always = null;
    this.about = null;
    this.to = null;
  }

  /** Requests to `/embeddings` or `/chat/completions`. */
  requestsTo(operation: 'embeddings' | 'chat/completions'): ModelRequest[] {
    return this.requests.filter((request) => request.path.endsWith(`/${operation}`));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse, text: string): void {
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // recorded as an empty body; answered 400 below
    }
    const path = req.url ?? '';
    this.requests.push({ path, at: Date.now(), authorization: req.headers.authorization, body });
    const concerned =
      (this.about === null || text.includes(this.about)) && (this.to === null || path.endsWith(`/${this.to}`));
    const fault = concerned ? (this.faults.shift() ?? this.always) : null;
    const json = (status: number, value: unknown, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
    };
    if (fault?.kind === 'hang') {
      this.hanging.add(res);
      return;
    }
    if (fault?.kind === 'rate-limited')
      return json(429, { error: 'slow down' }, { 'retry-after': String(fault.retryAfterSeconds) });
    if (fault?.kind === 'server-error') return json(500, { error: 'model crashed' });
    if (fault?.kind === 'malformed') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data": [1, 2');
      return;
    }
    if (req.method !== 'POST') return json(405, { error: 'POST only' });
    if (path.endsWith('/embeddings')) {
      const input = Array.isArray(body.input) ? (body.input as unknown[]).map(String) : [String(body.input)];
      const tokens = input.reduce((sum, one) => sum + wordsOf(one).length, 0);
      return json(200, {
        object: 'list',
        model: body.model,
        data: input.map((one, index) => ({ object: 'embedding', index, embedding: testVector(one) })),
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      });
    }
    if (path.endsWith('/chat/completions')) {
      const messages = Array.isArray(body.messages) ? (body.messages as Array<{ content?: unknown }>) : [];
      const last = String(messages.at(-1)?.content ?? '');
      const format = body.response_format as { json_schema?: { name?: string } } | undefined;
      const reply =
        fault?.kind === 'no-field'
          ? { mood: 'grumpy' }
          : format?.json_schema?.name === 'feedback_theme_name'
            ? testThemeName(last)
            : { sentiment: testSentiment(last) };
      const prompt = messages.reduce((sum, message) => sum + wordsOf(String(message.content ?? '')).length, 0);
      return json(200, {
        object: 'chat.completion',
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(reply) }, finish_reason: 'stop' }],
        usage: { prompt_tokens: prompt, completion_tokens: 6, total_tokens: prompt + 6 },
      });
    }
    json(404, { error: `no route ${path}` });
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
