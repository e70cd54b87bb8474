import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readyStatus } from '../src/stack/serviceProcess';

/** Ports fetch refuses ("bad port"), though a service may listen there. */
const BLOCKED_BY_FETCH = [6665, 6666, 6667, 6668, 6669, 10080];

async function listenOnBlockedPort(server: http.Server): Promise<number> {
  for (const port of BLOCKED_BY_FETCH) {
    const listening = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (listening) return (server.address() as AddressInfo).port;
  }
  throw new Error('every port of the list is taken');
}

test('when a service listens on a port fetch refuses, then its readiness is still read', async () => {
  const server = http.createServer((req, res) => res.writeHead(req.url === '/ready' ? 200 : 404).end());
  const port = await listenOnBlockedPort(server);
  try {
    await expect(fetch(`http://127.0.0.1:${port}/ready`)).rejects.toThrow();
    expect(await readyStatus(`http://127.0.0.1:${port}`)).toBe(200);
  } finally {
    server.close();
  }
  expect(await readyStatus(`http://127.0.0.1:${port}`)).toBeNull();
});
