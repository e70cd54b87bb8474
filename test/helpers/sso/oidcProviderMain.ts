/**
 * A real OpenID Provider (the `oidc-provider` package) on loopback, run as its own process by
 * test/helpers/sso/localOidcProvider.ts (the package is an ES module the test runner cannot load).
 * Logins need no form: the account is the authorization request's login_hint (its email), verified unless
 * the email's local part says "unverified", and consent is granted at once. A test may switch how the
 * next ID tokens are spoiled (POST /test/mode): re-signed with a wrong audience or as expired, or tampered
 * after signing, to see the relying party refuse each.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, importJWK, SignJWT, type JWK } from 'jose';
import Provider from 'oidc-provider';

type Mode = 'normal' | 'tamper' | 'wrong-audience' | 'expired';

const clientId = process.env.OP_CLIENT_ID ?? 'fi-test';
const clientSecret = process.env.OP_CLIENT_SECRET ?? 'not-a-secret';
const redirectUris = (process.env.OP_REDIRECT_URIS ?? '').split(',').filter(Boolean);

const kid = `test-${randomBytes(4).toString('hex')}`;
const signingJwk = {
  ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
  kid,
  alg: 'RS256',
  use: 'sig',
} as JWK;
let mode: Mode = 'normal';

async function spoil(idToken: string): Promise<string> {
  const claims = decodeJwt(idToken);
  if (mode === 'tamper') {
    const [header, , signature] = idToken.split('.');
    const changed = Buffer.from(JSON.stringify({ ...claims, email: `mallory@${String(claims.email).split('@')[1]}` }));
    return `${header}.${changed.toString('base64url')}.${signature}`;
  }
  const now = Math.floor(Date.now() / 1000);
  const spoiled =
    mode === 'wrong-audience'
      ? { ...claims, aud: 'another-client' }
      : { ...claims, iat: now - 7_200, exp: now - 3_600 };
  return new SignJWT(spoiled).setProtectedHeader({ alg: 'RS256', kid }).sign(await importJWK(signingJwk, 'RS256'));
}

/** Holds back the token endpoint's answer to swap its ID token for a spoiled one. */
function spoilTokenAnswer(res: http.ServerResponse): void {
  const chunks: Buffer[] = [];
  const end = res.end.bind(res);
  res.write = ((chunk: Buffer | string) => {
    chunks.push(Buffer.from(chunk));
    return true;
  }) as typeof res.write;
  res.end = ((chunk?: Buffer | string) => {
    if (chunk) chunks.push(Buffer.from(chunk));
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id_token?: string };
    void (async () => {
      if (body.id_token) body.id_token = await spoil(body.id_token);
      const text = JSON.stringify(body);
      res.setHeader('content-length', Buffer.byteLength(text));
      end(text);
    })();
    return res;
  }) as typeof res.end;
}

const server = http.createServer();
server.listen(0, '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [signingJwk] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // The email in the ID token itself, as Okta and Entra ID put it there (the relying party reads no userinfo).
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      return {
        accountId: sub,
        claims: () => ({ sub, email: sub, email_verified: !sub.startsWith('unverified'), name: `Person ${sub}` }),
      };
    },
  });
  const callback = provider.callback();
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', issuer);
    if (req.method === 'POST' && url.pathname === '/test/mode') {
      mode = (url.searchParams.get('mode') as Mode | null) ?? 'normal';
      res.end('ok');
      return;
    }
    if (url.pathname.startsWith('/interaction/')) {
      void finishInteraction(provider, req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    if (req.method === 'POST' && url.pathname === '/token' && mode !== 'normal') spoilTokenAnswer(res);
    void callback(req, res);
  });
  console.log(`OIDC_PROVIDER_URL=${issuer}`);
});

/** Logs the login_hint's account in and grants what was asked, without a form. */
async function finishInteraction(provider: Provider, req: http.IncomingMessage, res: http.ServerResponse) {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === 'login') {
    const accountId = String(details.params.login_hint ?? 'nobody@example.com');
    await provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
    return;
  }
  const grant = new provider.Grant({
    accountId: details.session?.accountId,
    clientId: String(details.params.client_id),
  });
  grant.addOIDCScope(String(details.params.scope));
  await provider.interactionFinished(
    req,
    res,
    { consent: { grantId: await grant.save() } },
    { mergeWithLastSubmission: true },
  );
}
