import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: Record<string, string>;
  body: string;
  json: {
    id: string;
    type: string;
    timestamp: string;
    data: { item: { id: string; [field: string]: unknown }; previous?: Record<string, unknown> };
  };
}

/** How the receiver answers a request: a status code, or `hang` (never answers). */
export type Answer = number | 'hang';

/**
 * A real HTTP server on 127.0.0.1 that records every webhook it receives and answers as a test says
 * (by default 200). Hanging requests are let go when the receiver closes.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  private answers: Answer[] = [];
  private fallback: Answer = 200;
  private readonly hanging = new Set<http.ServerResponse>();

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(path = '/hooks'): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | undefined = undefined;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => receiver?.handle(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver = new WebhookReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
    return receiver;
  }

  /** The next requests get these answers, in turn; later ones get `fallback`. */
  answer(answers: Answer[], fallback: Answer = 200): void {
    this.answers = [...answers];
    this.fallback = fallback;
  }

  ofType(type: string): Received[] {
    return this.received.filter((r) => r.json.type === type);
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse, body: string): void {
    const headers = Object.fromEntries(Object.entries(req.headers).map(([key, value]) => [key, String(value)]));
    this.received.push({ headers, body, json: JSON.parse(body) as Received['json'] });
    const answer = this.answers.shift() ?? this.fallback;
    if (answer === 'hang') {
      this.hanging.add(res);
      return;
    }
    res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
