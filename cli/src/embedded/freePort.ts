import net from 'node:net';

function listenOnce(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as net.AddressInfo;
      server.close(() => resolve(bound));
    });
  });
}

/** A loopback port that was free a moment ago. */
export function freePort(): Promise<number> {
  return listenOnce(0);
}

/** Throws a readable error for the first port something else already listens on. */
export async function requireFreePorts(ports: Record<string, number>): Promise<void> {
  for (const [what, port] of Object.entries(ports)) {
    try {
      await listenOnce(port);
    } catch {
      throw new Error(`port ${port} (${what}) is already in use: stop whatever listens there, or choose another port`);
    }
  }
}
