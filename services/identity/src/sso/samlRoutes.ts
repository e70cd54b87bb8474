import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, type RouteHandler } from '@fi/shared';
import { spMetadataXml } from './samlClient';
import { SAML_ACS_PATH, SAML_METADATA_PATH, type SsoSignIn } from './ssoSignIn';

/** Larger than any SAMLResponse an identity provider posts (a few KB to a few dozen with certificates). */
const MAX_FORM_BYTES = 512 * 1024;
export const SAML_COMPLETE_PATH = '/auth/saml/complete';

function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers['content-type'] ?? ''))
    return Promise.reject(new HttpError(415, 'Content-Type must be application/x-www-form-urlencoded'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_FORM_BYTES) chunks.push(chunk);
    });
    req.on('end', () =>
      size > MAX_FORM_BYTES
        ? reject(new HttpError(413, `Request body exceeds ${MAX_FORM_BYTES} bytes`))
        : resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))),
    );
    req.on('error', reject);
  });
}

/**
 * SAML's HTTP edge, reached through the gateway at the same paths of the web origin: our service
 * provider metadata (GET), and the assertion consumer the identity provider's page posts to, which checks
 * the answer and sends the browser on to the completion page with a ticket (303), refused or not.
 */
export function samlRoutes(
  signIn: SsoSignIn,
  publicUrl: string,
  addressOf: (req: IncomingMessage) => string,
): { get: Record<string, RouteHandler>; post: Record<string, RouteHandler> } {
  return {
    get: {
      [SAML_METADATA_PATH]: async (_req: IncomingMessage, res: ServerResponse) => {
        res.writeHead(200, { 'content-type': 'application/samlmetadata+xml; charset=utf-8' });
        res.end(spMetadataXml(signIn.sp));
      },
    },
    post: {
      [SAML_ACS_PATH]: async (req: IncomingMessage, res: ServerResponse) => {
        const ticket = await signIn.acceptSaml(await readForm(req), addressOf(req));
        res.writeHead(303, {
          location: `${publicUrl}${SAML_COMPLETE_PATH}?ticket=${encodeURIComponent(ticket)}`,
          'cache-control': 'no-store',
        });
        res.end();
      },
    },
  };
}
