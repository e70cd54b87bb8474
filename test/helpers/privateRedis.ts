import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { freePort, stopChild } from '@fi/cli/embedded';
import { eventually } from './processes';

/** A redis-server of one test's own on a loopback port, which the test may stop and start again. */
export class PrivateRedis {
  private child: ChildProcess | null = null;

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    await redis.restart();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async restart(): Promise<void> {
    this.child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    this.child.once('error', () => undefined);
    await eventually(
      () => this.child?.exitCode === null && redisAnswers(this.port),
      10_000,
      `redis-server on port ${this.port} (is redis-server installed?)`,
    );
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (child) await stopChild(child);
  }
}

/** True when something accepts connections on this loopback port. */
export function redisAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
