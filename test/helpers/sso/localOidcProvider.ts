import path from 'node:path';
import { ROOT, spawnEntry, eventually, PROCESS_START_MS, type Spawned } from '../processes';

/** The local OpenID Provider of test/helpers/sso/oidcProviderMain.ts, as its own process on loopback. */
export class LocalOidcProvider {
  private constructor(
    private readonly process: Spawned,
    readonly issuer: string,
    readonly clientId: string,
    readonly clientSecret: string,
  ) {}

  static async start(redirectUris: string[]): Promise<LocalOidcProvider> {
    const clientId = 'fi-test-client';
    const clientSecret = `secret-${Math.random().toString(36).slice(2)}`;
    const spawned = spawnEntry(path.relative(ROOT, path.join(__dirname, 'oidcProviderMain.ts')), {
      OP_CLIENT_ID: clientId,
      OP_CLIENT_SECRET: clientSecret,
      OP_REDIRECT_URIS: redirectUris.join(','),
    });
    let issuer = '';
    await eventually(
      () => {
        issuer = /OIDC_PROVIDER_URL=(\S+)/.exec(spawned.output())?.[1] ?? '';
        if (spawned.child.exitCode !== null) throw new Error(`the OpenID Provider exited: ${spawned.output()}`);
        return issuer !== '';
      },
      PROCESS_START_MS,
      'the local OpenID Provider',
    );
    return new LocalOidcProvider(spawned, issuer, clientId, clientSecret);
  }

  /** How the next ID tokens are spoiled (normal: not at all). */
  async setMode(mode: 'normal' | 'tamper' | 'wrong-audience' | 'expired'): Promise<void> {
    const response = await fetch(`${this.issuer}/test/mode?mode=${mode}`, { method: 'POST' });
    if (!response.ok) throw new Error(`the provider refused mode ${mode}: ${response.status}`);
  }

  /**
   * Follows the provider's redirects from an authorization address, as a browser would (keeping its
   * cookies), until it sends the browser to `callbackPrefix`; returns that address.
   */
  async authorize(authorizationUrl: string, callbackPrefix: string): Promise<URL> {
    const cookies = new Map<string, string>();
    let url = authorizationUrl;
    for (let hop = 0; hop < 10; hop += 1) {
      if (url.startsWith(callbackPrefix)) return new URL(url);
      const response = await fetch(url, {
        redirect: 'manual',
        headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
      });
      for (const header of response.headers.getSetCookie()) {
        const [pair] = header.split(';');
        const [name, ...value] = pair.split('=');
        cookies.set(name.trim(), value.join('='));
      }
      const location = response.headers.get('location');
      if (!location)
        throw new Error(`the provider answered ${response.status} without a redirect: ${await response.text()}`);
      url = new URL(location, url).toString();
    }
    throw new Error('the provider redirected more than 10 times');
  }

  async stop(): Promise<void> {
    this.process.child.kill('SIGTERM');
    await this.process.exited;
  }
}
