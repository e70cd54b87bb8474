import net from 'node:net';

/** Commands of monitors and handshakes: always passed, so the server stays "known" and connections open while work stalls. */
const MONITORING = new Set(['hello', 'ismaster', 'isMaster']);
const OP_MSG = 2013;

/**
 * A loopback TCP proxy in front of a database that can hold every command except the monitors' `hello`
 * until released: each held command keeps its pooled connection busy while the server still looks
 * healthy, which is how a pool runs dry in production (slow work, not an outage).
 */
export class StallingProxy {
  private stalled = false;
  private readonly held: Array<() => void> = [];
  private readonly sockets = new Set<net.Socket>();

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
  ) {}

  static async start(targetPort: number): Promise<StallingProxy> {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const proxy = new StallingProxy(server, (server.address() as net.AddressInfo).port);
    server.on('connection', (client) => proxy.connect(client, targetPort));
    return proxy;
  }

  get uri(): string {
    return `mongodb://127.0.0.1:${this.port}/`;
  }

  /** Commands held so far (each one a busy pooled connection). */
  get heldCount(): number {
    return this.held.length;
  }

  stall(): void {
    this.stalled = true;
  }

  /** Sends every held command on and passes the later ones. */
  release(): void {
    this.stalled = false;
    for (const send of this.held.splice(0)) send();
  }

  async close(): Promise<void> {
    this.release();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private connect(client: net.Socket, targetPort: number): void {
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('error', () => [client, upstream].forEach((each) => each.destroy()));
      socket.on('close', () => this.sockets.delete(socket));
    }
    upstream.pipe(client);
    let pending = Buffer.alloc(0);
    // Messages of one connection leave in order: a held one holds those behind it too.
    let queue = Promise.resolve();
    client.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
        const message = pending.subarray(0, pending.readInt32LE(0));
        pending = pending.subarray(message.length);
        queue = queue.then(() => this.forward(message, upstream));
      }
    });
  }

  private forward(message: Buffer, upstream: net.Socket): Promise<void> {
    if (!this.stalled || !isWork(message)) {
      upstream.write(message);
      return Promise.resolve();
    }
    return new Promise<void>((resolve) =>
      this.held.push(() => {
        upstream.write(message);
        resolve();
      }),
    );
  }
}

/**
 * An OP_MSG whose command (the first key of its body section: header 16 bytes, flags 4, kind 1, type 1)
 * is not a monitor's. A new connection's handshake is an OP_QUERY, so it is never held.
 */
function isWork(message: Buffer): boolean {
  if (message.length < 27 || message.readInt32LE(12) !== OP_MSG || message[20] !== 0) return false;
  const end = message.indexOf(0, 26);
  return end > 26 && !MONITORING.has(message.toString('utf8', 26, end));
}
