/** A same-origin page of the web application on the admin API: keeps the session cookie and sends its CSRF token. */
export class AdminBrowser {
  private cookie = '';
  private csrf = '';

  constructor(private readonly url: string) {}

  async gql<T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.cookie) headers.cookie = this.cookie;
    if (this.csrf) headers['x-csrf-token'] = this.csrf;
    const response = await fetch(this.url, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0];
    return (await response.json()) as {
      data?: T | null;
      errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
    };
  }

  async signIn(email: string, password: string): Promise<void> {
    const answer = await this.gql<{ signIn: { csrfToken: string } }>(
      'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { csrfToken } }',
      { e: email, p: password },
    );
    if (!answer.data?.signIn) throw new Error(`sign-in failed: ${JSON.stringify(answer.errors)}`);
    this.csrf = answer.data.signIn.csrfToken;
  }
}
