import { spawn } from 'node:child_process';
import net from 'node:net';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, stopChild } from '@fi/cli/embedded';
import { SupervisedService, type SupervisorEvents } from '@fi/cli';
import { MemberService, openRepositories, OPERATOR } from '@fi/identity';
import { connectMongo } from '@fi/shared/database';
import { createKeyAt, newOrgId } from './helpers/keys';
import { eventually, PROCESS_START_MS, spawnEntry } from './helpers/processes';

/** The first line an SMTP server at 127.0.0.1:`port` sends. */
function smtpGreeting(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('data', (chunk: Buffer) => {
      socket.end('QUIT\r\n');
      resolve(chunk.toString('utf8').split('\r\n')[0]);
    });
    socket.once('error', reject);
  });
}

/**
 * `npm start` heals: a crashed service comes back; one that keeps crashing stops the stack. Its
 * development links point at its own gateway and stay in a log only its user reads.
 */

describe('a supervised service', () => {
  test('when it keeps crashing, then it is restarted with growing back-off and given up on after the limit', async () => {
    const log: string[] = [];
    let gaveUp: (crashes: number) => void = () => undefined;
    const given = new Promise<number>((resolve) => (gaveUp = resolve));
    const events: SupervisorEvents = {
      restarting: (name, code, _signal, delayMs) => log.push(`restarting ${name} code ${code} in ${delayMs}`),
      restarted: (name) => log.push(`restarted ${name}`),
      gaveUp: (_name, crashes) => gaveUp(crashes),
    };
    const crashing = () => {
      const child = spawn(process.execPath, ['-e', 'process.exit(3)'], { stdio: 'ignore' });
      return { name: 'crashy', url: '', child, stop: () => stopChild(child) };
    };

    const service = new SupervisedService(crashing, events, {
      maxCrashes: 3,
      windowMs: 60_000,
      initialBackoffMs: 20,
      maxBackoffMs: 50,
    });

    expect(await given).toBe(4);
    expect(log).toEqual([
      'restarting crashy code 3 in 20',
      'restarted crashy',
      'restarting crashy code 3 in 40',
      'restarted crashy',
      'restarting crashy code 3 in 50',
      'restarted crashy',
    ]);
    await service.stop();
  });
});

describe('npm start', () => {
  // Four processes compile and start under tsx: minutes on a loaded machine, not seconds.
  const STACK_TEST_MS = 300_000;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fi-stack-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  /** The pids of a process's direct children (Linux). */
  const childrenOf = (pid: number): number[] =>
    readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  const commandOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8');

  const ports = async () => ({
    GATEWAY_PORT: String(await freePort()),
    FEEDBACK_PORT: String(await freePort()),
    CONTACTS_PORT: String(await freePort()),
    ACCOUNTS_PORT: String(await freePort()),
    IDENTITY_PORT: String(await freePort()),
    FEEDBACK_WORKER_PORT: String(await freePort()),
    INTEGRATIONS_PORT: String(await freePort()),
    INTEGRATIONS_RECEIVER_PORT: String(await freePort()),
    INTEGRATIONS_WORKER_PORT: String(await freePort()),
    INBOUND_SMTP_PORT: String(await freePort()),
  });
  const serviceOf = (stackPid: number, name: string, entry = 'main.ts') =>
    childrenOf(stackPid).find((pid) => commandOf(pid).includes(`services/${name}/src/${entry}`));

  /** `npm start` on ports of its own with the test's database and no Redis, once it says it is up. */
  const startStack = async (extra: Record<string, string> = {}) => {
    const stackPorts = await ports();
    const stack = spawnEntry('cli/src/stack/startStack.ts', {
      MONGODB_URI: process.env.MONGODB_URI,
      FI_DATA_DIR: dataDir,
      REDIS_URL: '',
      ...extra,
      ...stackPorts,
    });
    try {
      await eventually(() => stack.output().includes('is up'), 180_000, 'the stack to start');
    } catch (error) {
      stack.child.kill('SIGKILL');
      throw error;
    }
    return { stack, stackPorts };
  };

  test(
    'when a service crashes more often than the restart limit allows, then the stack stops with a clear message',
    async () => {
      const { stack } = await startStack({ STACK_RESTART_LIMIT: '0' });
      try {
        process.kill(serviceOf(stack.child.pid as number, 'contacts') as number, 'SIGKILL');
        expect(await stack.exited).toBe(1);
        expect(stack.output()).toMatch(/contacts crashed 1 time within 60 s; giving up and stopping the stack/);
      } finally {
        stack.child.kill('SIGKILL');
      }
    },
    STACK_TEST_MS,
  );

  test(
    'when a service is killed with SIGKILL, then it is restarted, answers through the gateway again, and Ctrl-C still stops everything',
    async () => {
      const mongodbUri = process.env.MONGODB_URI as string;
      const key = await createKeyAt(mongodbUri);
      const { stack, stackPorts } = await startStack();
      const stackPid = stack.child.pid as number;
      let servicePids: number[] = [];
      try {
        const accounts = serviceOf(stackPid, 'accounts');
        expect(accounts).toBeDefined();

        process.kill(accounts as number, 'SIGKILL');

        await eventually(
          () => /accounts restarted \(pid \d+\)/.test(stack.output()),
          60_000,
          'the accounts service to be restarted',
        );
        expect(stack.output()).toMatch(
          /accounts stopped unexpectedly \(signal SIGKILL\); restarting it in 0.5 s \(crash 1 of 5 allowed in 60 s\)/,
        );
        const ask = async () => {
          const response = await fetch(`http://127.0.0.1:${stackPorts.GATEWAY_PORT}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              query: 'query($k: String!) { accountItems(apiKey: $k, take: 1) { total } }',
              variables: { k: key },
            }),
          });
          const body = (await response.json()) as {
            data?: { accountItems?: { total: number } } | null;
            errors?: unknown[];
          };
          return response.status === 200 && !body.errors && body.data?.accountItems?.total === 0;
        };
        await eventually(ask, 60_000, 'the restarted accounts service to answer through the gateway');
        servicePids = childrenOf(stackPid);
      } finally {
        stack.child.kill('SIGINT');
      }
      expect(await stack.exited).toBe(0);
      const alive = (pid: number) => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      };
      await eventually(() => servicePids.every((pid) => !alive(pid)), 20_000, 'every service process to stop');
    },
    STACK_TEST_MS,
  );
  test(
    'when the stack runs on ports of its own, then a password-reset link points at its gateway and the identity log holding it is mode 0600',
    async () => {
      const mongodbUri = process.env.MONGODB_URI as string;
      const email = `stack-reset-${Date.now()}@example.com`;
      const orgId = newOrgId();
      await createKeyAt(mongodbUri, orgId);
      const identity = await connectMongo(mongodbUri, 'identity');
      try {
        await new MemberService(await openRepositories(identity)).add(OPERATOR, orgId, {
          email,
          name: 'Stack Owner',
          role: 'owner',
          password: 'a long enough password',
        });
      } finally {
        await identity.close();
      }
      const { stack, stackPorts } = await startStack();
      const log = path.join(dataDir, 'logs', 'identity.log');
      try {
        const response = await fetch(`http://127.0.0.1:${stackPorts.GATEWAY_PORT}/admin/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            query: 'mutation($e: String!) { requestPasswordReset(email: $e) }',
            variables: { e: email },
          }),
        });
        expect(await response.json()).toEqual({ data: { requestPasswordReset: true } });
        let link = '';
        await eventually(
          () => {
            const line = readFileSync(log, 'utf8')
              .split('\n')
              .find((entry) => entry.includes(email) && entry.includes('"purpose":"password reset"'));
            link = line ? String((JSON.parse(line) as { link: string }).link) : '';
            return link !== '';
          },
          30_000,
          'the logged reset link',
        );
        expect(link).toMatch(new RegExp(`^http://localhost:${stackPorts.GATEWAY_PORT}/reset-password\\?token=`));
        expect(statSync(log).mode & 0o777).toBe(0o600);
      } finally {
        stack.child.kill('SIGINT');
      }
      expect(await stack.exited).toBe(0);
    },
    STACK_TEST_MS,
  );

  test(
    'when the feedback worker is killed with SIGKILL, then the gateway keeps answering reads and writes and the worker comes back as its own process',
    async () => {
      const mongodbUri = process.env.MONGODB_URI as string;
      const key = await createKeyAt(mongodbUri);
      const { stack, stackPorts } = await startStack();
      const stackPid = stack.child.pid as number;
      try {
        // npm start shows the worker: its own process, a child of the stack running the worker's entry.
        const shown = /Worker: +feedback-worker \(pid (\d+)\): background work; health and metrics on (\S+)/.exec(
          stack.output(),
        );
        expect(shown?.[2]).toBe(`http://localhost:${stackPorts.FEEDBACK_WORKER_PORT}`);
        // And where email connections' mail arrives: the receiver's SMTP listener, which greets.
        expect(stack.output()).toContain(`Inbound mail: smtp://localhost:${stackPorts.INBOUND_SMTP_PORT}`);
        expect(await smtpGreeting(Number(stackPorts.INBOUND_SMTP_PORT))).toMatch(/^220 /);
        const worker = serviceOf(stackPid, 'feedback', 'worker.ts');
        expect(worker).toBe(Number(shown?.[1]));
        expect(serviceOf(stackPid, 'feedback')).not.toBe(worker);
        // On this one machine the worker stands back for the API (WORKER_NICE, 10 under npm start).
        const niceOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[16]);
        expect(niceOf(worker as number)).toBe(10);
        expect(niceOf(serviceOf(stackPid, 'feedback') as number)).toBe(niceOf(process.pid));

        process.kill(worker as number, 'SIGKILL');
        const ask = async (query: string, variables: Record<string, unknown>) => {
          const response = await fetch(`http://127.0.0.1:${stackPorts.GATEWAY_PORT}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query, variables }),
          });
          return { status: response.status, body: (await response.json()) as { data?: unknown; errors?: unknown } };
        };
        const written = await ask(
          'mutation($k: String!) { addFeedbackItem(apiKey: $k, input: { source: "api", title: "t", content: "c" }) { id } }',
          { k: key },
        );
        expect(written).toMatchObject({ status: 200, body: { data: { addFeedbackItem: { id: expect.any(String) } } } });
        const read = await ask('query($k: String!) { feedbackItems(apiKey: $k, take: 1) { total } }', { k: key });
        expect(read).toMatchObject({ status: 200, body: { data: { feedbackItems: { total: 1 } } } });

        await eventually(
          () => /feedback-worker restarted \(pid \d+\)/.test(stack.output()),
          60_000,
          'the worker to be restarted',
        );
        expect(stack.output()).toMatch(/feedback-worker stopped unexpectedly \(signal SIGKILL\); restarting it/);
        await eventually(
          async () =>
            (await fetch(`${shown?.[2]}/ready`).then(
              (r) => r.status,
              () => 0,
            )) === 200,
          PROCESS_START_MS,
          'the restarted worker to be ready',
        );
        expect(serviceOf(stackPid, 'feedback', 'worker.ts')).not.toBe(worker);
      } finally {
        stack.child.kill('SIGINT');
      }
      expect(await stack.exited).toBe(0);
    },
    STACK_TEST_MS,
  );
});
