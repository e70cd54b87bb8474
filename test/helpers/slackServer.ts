import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SlackMember {
  id: string;
  realName: string;
  email: string;
}

/**
 * A local server speaking the part of Slack's Web API the integrations worker calls: GET
 * /api/users.info?user=<id> with `Authorization: Bearer <bot token>`, answering as Slack does (`ok`,
 * `user.profile.real_name`, `user.profile.email`; `ok: false` with `invalid_auth` or `user_not_found`).
 */
export async function startSlackServer(token: string, members: SlackMember[]) {
  const calls: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    calls.push(`${req.method} ${url.pathname}`);
    const answer = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname !== '/api/users.info') return answer({ ok: false, error: 'unknown_method' });
    if (req.headers.authorization !== `Bearer ${token}`) return answer({ ok: false, error: 'invalid_auth' });
    const member = members.find((m) => m.id === url.searchParams.get('user'));
    if (!member) return answer({ ok: false, error: 'user_not_found' });
    return answer({
      ok: true,
      user: {
        id: member.id,
        name: member.realName.toLowerCase().replace(/\s+/g, '.'),
        real_name: member.realName,
        profile: { real_name: member.realName, display_name: member.realName.split(' ')[0], email: member.email },
      },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
