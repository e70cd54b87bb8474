import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { checkedLookup, checkUrlForm, refusalOf, type TargetPolicy } from './targetPolicy';

export interface SendResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** A receiver's answer is read up to this much and discarded: only its status matters. */
const MAX_RESPONSE_BYTES = 64 * 1024;

const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

/**
 * POSTs one signed event. Standard Webhooks headers, signed by the `standardwebhooks` library with the
 * attempt's time, once per secret (space-separated in `webhook-signature`, as the standard allows, so a
 * receiver holding either secret of a rotation verifies it); the connection goes to the address the target policy checked (see `checkedLookup`).
 * Redirects are not followed (a 3xx is a failed attempt): following one would bypass the policy.
 */
export function sendSigned(
  target: { url: string; secrets: string[] },
  message: { id: string; payload: string },
  policy: TargetPolicy,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<SendResult> {
  const now = new Date();
  const signature = target.secrets
    .map((secret) => new Webhook(secret).sign(message.id, now, message.payload))
    .join(' ');
  return postJson(
    target.url,
    message.payload,
    {
      'user-agent': 'FeedbackIntelligence-Webhooks/1',
      'webhook-id': message.id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signature,
    },
    policy,
    timeoutMs,
    signal,
  );
}

/**
 * POSTs a JSON body to a URL under the target policy (webhooks, and other outgoing posts a customer points
 * at a URL, such as a Slack incoming webhook): the connection goes to the address the policy checked (see
 * `checkedLookup`); redirects are not followed (a 3xx is a failure): following one would bypass the policy.
 */
export function postJson(
  target: string,
  payload: string,
  headers: Record<string, string>,
  policy: TargetPolicy,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<SendResult> {
  const started = Date.now();
  const done = (statusCode: number | null, error: string | null): SendResult => ({
    ok: statusCode !== null && statusCode >= 200 && statusCode < 300,
    statusCode,
    error,
    durationMs: Date.now() - started,
  });
  let url: URL;
  try {
    url = checkUrlForm(target, policy);
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    const refusal = isIP(literal) ? refusalOf(literal, policy) : null;
    if (refusal) return Promise.resolve(done(null, `refused: ${refusal}`));
  } catch (error) {
    return Promise.resolve(done(null, `refused: ${(error as Error).message}`));
  }
  const body = Buffer.from(payload);
  return new Promise<SendResult>((resolve) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(
      url,
      {
        method: 'POST',
        agent: agents[url.protocol as 'http:' | 'https:'],
        lookup: checkedLookup(policy),
        timeout: timeoutMs,
        signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
        headers: { 'content-type': 'application/json', 'content-length': body.length, ...headers },
      },
      (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) response.destroy();
        });
        const status = response.statusCode ?? null;
        const finish = () =>
          resolve(done(status, status !== null && status >= 200 && status < 300 ? null : `HTTP ${status}`));
        response.on('end', finish);
        response.on('close', finish);
        response.on('error', finish);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', (error: NodeJS.ErrnoException) => {
      const reason =
        error.name === 'AbortError' || error.name === 'TimeoutError'
          ? signal.aborted
            ? 'aborted: the service shut down'
            : `no answer within ${timeoutMs} ms`
          : error.code === 'ETARGETREFUSED'
            ? `refused: ${error.message}`
            : `${error.code ? `${error.code}: ` : ''}${error.message}`;
      resolve(done(null, reason.slice(0, 500)));
    });
    request.end(body);
  });
}
