import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { hashApiKey } from '@fi/shared';
import { cli } from './helpers/cli';
import { LIST_ACCOUNTS, LIST_CONTACTS, LIST_FEEDBACK } from './helpers/queries';
import { newOrgId, startStack, type Stack } from './helpers/stack';
import { LIST_ENDPOINTS } from './helpers/webhookQueries';

let stack: Stack;
let dir: string;
beforeAll(async () => {
  stack = await startStack();
  dir = mkdtempSync(path.join(os.tmpdir(), 'fi-cli-'));
});
afterAll(() => stack.close());

function file(name: string, content: string): string {
  const target = path.join(dir, name);
  writeFileSync(target, content);
  return target;
}

async function total(query: string, field: string, apiKey: string): Promise<number> {
  const response = await stack.gql<Record<string, { total: number }>>(query, { apiKey });
  return response.body.data![field].total;
}

describe('keys', () => {
  test('when a key is created, then stdout holds only the key and it works at the gateway', async () => {
    const org = newOrgId();
    const { code, stdout } = await cli('keys', 'create', '--org', org, '--tier', 'pro');
    expect(code).toBe(0);
    expect(stdout).toHaveLength(1);
    expect(stdout[0]).toMatch(/^fik_[A-Za-z0-9_-]{43}$/);
    expect(await total(LIST_FEEDBACK, 'feedbackItems', stdout[0])).toBe(0);
  });

  test('when keys are listed, then the secret never appears', async () => {
    const org = newOrgId();
    const {
      stdout: [key],
    } = await cli('keys', 'create', '--org', org, '--read-only');
    const { code, stdout } = await cli('keys', 'list', '--org', org);
    expect(code).toBe(0);
    expect(stdout).toHaveLength(1);
    expect(stdout[0]).toContain('read-only');
    expect(stdout.join('\n')).not.toContain(key);
    expect(stdout.join('\n')).not.toContain(key.slice(8));
  });

  test.each([['its id'], ['the key itself']])('when a key is revoked by %s, then it stops working', async (by) => {
    const org = newOrgId();
    const {
      stdout: [key],
    } = await cli('keys', 'create', '--org', org);
    const id = (await cli('keys', 'list', '--org', org)).stdout[0].split('\t')[0];
    expect((await cli('keys', 'revoke', by === 'its id' ? id : key)).code).toBe(0);

    const response = await stack.gql(LIST_FEEDBACK, { apiKey: key });
    expect(response.body.errors?.[0]).toMatchObject({
      message: 'Invalid API key',
      extensions: { code: 'UNAUTHENTICATED' },
    });
    expect((await cli('keys', 'list', '--org', org)).stdout[0]).toContain('revoked');
  });

  test('when the arguments are wrong, then exit code 2 with a message', async () => {
    expect((await cli('keys', 'create')).code).toBe(2);
    expect((await cli('keys', 'create', '--org', 'x', '--tier', 'gold')).stderr).toContain('--tier');
    expect((await cli('keys', 'revoke', 'key_doesnotexist')).code).toBe(2);
    expect((await cli('frobnicate')).code).toBe(2);
  });

  test('when an organization exists, then keys create joins it and refuses to change its plan', async () => {
    const org = newOrgId();
    expect((await cli('keys', 'create', '--org', org, '--tier', 'pro')).code).toBe(0);
    expect((await cli('keys', 'create', '--org', org, '--read-only')).code).toBe(0);
    const refused = await cli('keys', 'create', '--org', org, '--tier', 'free');
    expect(refused).toMatchObject({ code: 2, stderr: `Organization ${org} is on the pro plan, not free` });
    const listed = (await cli('keys', 'list', '--org', org)).stdout;
    expect(listed.map((line) => line.split('\t')[2])).toEqual(['pro', 'pro']);
  });

  test('when keys of the old shared store are migrated, then they keep working, a second run moves nothing, and the tier becomes the plan', async () => {
    const legacyDb = `auth_${randomUUID().slice(0, 8)}`;
    const legacy = (await stack.connect('feedback')).useDb(legacyDb);
    const org = newOrgId();
    const key = `fik_${randomUUID().replace(/-/g, '')}legacy`;
    await legacy.collection('api_keys').insertMany([
      {
        _id: `key_${randomUUID().slice(0, 16)}` as never,
        hash: hashApiKey(key),
        orgId: org,
        tier: 'free',
        readOnly: false,
        rateLimitPerMinute: null,
        createdAt: new Date(),
        revokedAt: null,
        hint: key.slice(0, 8),
      },
      {
        _id: `key_${randomUUID().slice(0, 16)}` as never,
        hash: hashApiKey(`${key}2`),
        orgId: org,
        tier: 'enterprise',
        readOnly: true,
        createdAt: new Date(),
        hint: key.slice(0, 8),
      },
    ]);
    expect((await stack.gql(LIST_FEEDBACK, { apiKey: key })).body.errors?.[0].message).toBe('Invalid API key');
    process.env.AUTH_MONGODB_DB = legacyDb;
    try {
      const first = await cli('keys', 'migrate');
      expect(first).toMatchObject({
        code: 0,
        stderr: expect.stringContaining(
          `Moved 2 keys of 1 organizations (0 moved before). Organizations whose keys had different tiers now have the highest: ${org}.`,
        ),
      });
      expect((await cli('keys', 'migrate')).stderr).toContain('Moved 0 keys of 1 organizations (2 moved before).');
    } finally {
      delete process.env.AUTH_MONGODB_DB;
    }
    expect((await stack.gql(LIST_FEEDBACK, { apiKey: key })).body.errors).toBeUndefined();
    expect((await cli('keys', 'list', '--org', org)).stdout.map((line) => line.split('\t')[2])).toEqual([
      'enterprise',
      'enterprise',
    ]);
  });

  test('when run as a process, then stdout is exactly the key', async () => {
    const org = newOrgId();
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'cli/src/main.ts', 'keys', 'create', '--org', org],
      {
        cwd: path.resolve(__dirname, '..'),
        env: { ...process.env },
      },
    );
    expect(stdout).toMatch(/^fik_[A-Za-z0-9_-]{43}\n$/);
  });
});

describe('import', () => {
  test('when every record is valid, then JSON arrays and NDJSON are imported', async () => {
    const { key, orgId } = await stack.createKey();
    const contacts = file(
      'contacts.json',
      JSON.stringify([
        { name: 'Ada', email: 'ada@example.com', tags: ['vip'], lastInteraction: '2024-05-01T10:00:00Z' },
        { id: 'ignored', name: 'Alan', company: 'Bletchley', totalFeedbacks: 99 },
      ]),
    );
    const accounts = file(
      'accounts.ndjson',
      '{"name":"Acme","domain":"acme.com","score":0.5,"churnRisk":0}\n\n{"name":"Globex","score":1}\n',
    );
    const feedback = file(
      'feedback.ndjson',
      '{"source":"csv","title":"Hi","content":"Body","status":"read","publishedDate":"2024-01-01T00:00:00Z"}\n',
    );

    expect((await cli('import', 'contacts', contacts, '--org', orgId)).code).toBe(0);
    expect((await cli('import', 'accounts', accounts, '--org', orgId)).code).toBe(0);
    const result = await cli('import', 'feedback', feedback, '--org', orgId);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Imported 1 feedback');

    expect(await total(LIST_CONTACTS, 'contactItems', key)).toBe(2);
    expect(await total(LIST_ACCOUNTS, 'accountItems', key)).toBe(2);
    const read = await stack.gql<{ feedbackItems: { total: number } }>(LIST_FEEDBACK, { apiKey: key, status: 'read' });
    expect(read.body.data!.feedbackItems.total).toBe(1);
  });

  test.each([
    ['contacts', [{ name: 'Ok' }, { name: 'Bad', email: 'nope' }], 'email'],
    ['contacts', [{ name: 'Ok' }, { name: 'Bad', tags: 'vip' }], 'tags'],
    ['contacts', [{ name: 'Ok' }, { emial: 'typo@example.com', name: 'X' }], 'unknown field'],
    ['accounts', [{ name: 'Ok' }, { name: 'Bad', score: 1.5 }], 'score'],
    ['accounts', [{ name: 'Ok' }, { name: 'Bad', churnRisk: -0.1 }], 'churnRisk'],
    ['accounts', [{ name: 'Ok' }, { domain: 'no-name.com' }], 'name'],
    [
      'feedback',
      [
        { source: 'a', title: 'b', content: 'c' },
        { source: 'a', title: ' ', content: 'c' },
      ],
      'title',
    ],
    [
      'feedback',
      [
        { source: 'a', title: 'b', content: 'c' },
        { source: 'a', title: 'b', content: 'c', status: 'gone' },
      ],
      'status',
    ],
  ])(
    'when one %s record is invalid, then nothing is written and the problem is named',
    async (kind, records, problem) => {
      const { key, orgId } = await stack.createKey();
      const result = await cli('import', kind, file(`${kind}-bad.json`, JSON.stringify(records)), '--org', orgId);

      expect(result.code).toBe(2);
      expect(result.stderr).toContain('record 2');
      expect(result.stderr).toContain(problem);
      expect(result.stderr).toContain('nothing was imported');
      const [query, field] = {
        contacts: [LIST_CONTACTS, 'contactItems'],
        accounts: [LIST_ACCOUNTS, 'accountItems'],
        feedback: [LIST_FEEDBACK, 'feedbackItems'],
      }[kind]!;
      expect(await total(query, field, key)).toBe(0);
    },
  );

  test.each([
    // The examples: a raw JavaScript error instead of the problem, and only the first problem.
    ['a required field is missing', [{ source: 'api', title: 'x' }], ['record 1: content: is required']],
    [
      'a field has the wrong type',
      [{ source: 'api', title: 5, content: 'c' }],
      ['record 1: title: must be a string (got number)'],
    ],
    [
      'a record breaks several rules',
      [
        { source: 'api', title: 'ok', content: 'ok' },
        {
          source: ['api'],
          title: null,
          content: 'c',
          email: 'nope',
          sentiment: 'meh',
          metadata: 'x',
          status: 7,
          createdAt: 'yesterday',
          extra: 1,
        },
      ],
      [
        'record 2: extra: unknown field',
        'record 2: source: must be a string (got array)',
        'record 2: title: is required',
        'record 2: email: must be a valid email address',
        'record 2: sentiment: must be one of positive, neutral, negative (got "meh")',
        'record 2: metadata: must be a JSON object',
        'record 2: status: must be one of unread, read, archived (got 7)',
        'record 2: createdAt: must be an ISO 8601 date-time (got "yesterday")',
      ],
    ],
    ['a record is not an object', [42], ['record 1: record: must be a JSON object (got number)']],
  ])(
    'when %s, then every problem is listed by record and field, never a raw JavaScript error, and nothing is written',
    async (_, records, lines) => {
      const { key, orgId } = await stack.createKey();
      const result = await cli(
        'import',
        'feedback',
        file(`problems-${randomUUID()}.json`, JSON.stringify(records)),
        '--org',
        orgId,
      );

      expect(result.code).toBe(2);
      expect(result.stderr.split('\n').filter((line) => line.startsWith('record '))).toEqual(lines);
      expect(result.stderr).not.toMatch(/Cannot read properties|is not a function|undefined/);
      expect(result.stderr).toContain('nothing was imported');
      expect(await total(LIST_FEEDBACK, 'feedbackItems', key)).toBe(0);
    },
  );

  test('when --skip-invalid is given, then exactly the valid records are written and the skipped ones are reported', async () => {
    const { key, orgId } = await stack.createKey();
    const records = [
      { name: 'Ada' },
      { name: 5 },
      { name: 'Grace', email: 'grace@example.com' },
      { email: 'no-name@example.com' },
      { name: 'Alan' },
    ];
    const result = await cli(
      'import',
      'contacts',
      file('skip-invalid.json', JSON.stringify(records)),
      '--org',
      orgId,
      '--skip-invalid',
    );

    expect(result.code).toBe(0);
    expect(result.stderr).toContain('record 2: name: must be a string (got number)');
    expect(result.stderr).toContain('record 4: name: is required');
    expect(result.stderr).toContain('Imported 3 contacts');
    expect(result.stderr).toContain('5 read, 2 invalid and skipped');
    const contacts = await stack.gql<{ contactItems: { items: Array<{ name: string }> } }>(LIST_CONTACTS, {
      apiKey: key,
    });
    expect(contacts.body.data!.contactItems.items.map((contact) => contact.name).sort()).toEqual([
      'Ada',
      'Alan',
      'Grace',
    ]);
  });

  test('when the file is not JSON, then exit code 2 and nothing is written', async () => {
    const { orgId } = await stack.createKey();
    const result = await cli('import', 'contacts', file('broken.json', '[{"name": '), '--org', orgId);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('not valid JSON');
  });
});

describe('seed', () => {
  test('when an organization is seeded, then the counts are exact and contacts have feedback', async () => {
    const { key, orgId } = await stack.createKey();
    const result = await cli('seed', '--org', orgId, '--feedback', '500', '--contacts', '50', '--accounts', '10');
    expect(result.code).toBe(0);

    expect(await total(LIST_FEEDBACK, 'feedbackItems', key)).toBe(500);
    expect(await total(LIST_CONTACTS, 'contactItems', key)).toBe(50);
    expect(await total(LIST_ACCOUNTS, 'accountItems', key)).toBe(10);
    const contacts = await stack.gql<{ contactItems: { items: Array<{ totalFeedbacks: number }> } }>(LIST_CONTACTS, {
      apiKey: key,
      take: 50,
    });
    const counted = contacts.body.data!.contactItems.items.reduce((sum, contact) => sum + contact.totalFeedbacks, 0);
    expect(counted).toBeGreaterThan(300);
    expect(counted).toBeLessThanOrEqual(500);
  });
});

describe('webhooks (CLI)', () => {
  test('when an operator adds, lists and removes an endpoint, then the API sees the same and the secret is printed once', async () => {
    const { key, orgId } = await stack.createKey();
    // A public address literal: no DNS lookup, accepted by the production policy the CLI applies here.
    const added = await cli(
      'webhooks',
      'add',
      '--org',
      orgId,
      '--url',
      'https://93.184.215.14/hooks',
      '--events',
      'feedback.created, feedback.deleted',
    );
    expect(added.code).toBe(0);
    expect(added.stdout).toEqual([expect.stringMatching(/^whsec_/)]);
    const [endpoint] = (
      await stack.gql<{ webhookEndpoints: Array<{ id: string; url: string; events: string[] }> }>(LIST_ENDPOINTS, {
        k: key,
      })
    ).body.data!.webhookEndpoints;
    expect(endpoint).toMatchObject({
      url: 'https://93.184.215.14/hooks',
      events: ['feedback.created', 'feedback.deleted'],
    });

    const listed = await cli('webhooks', 'list', '--org', orgId);
    expect(listed.stdout).toEqual([
      expect.stringContaining(`${endpoint.id}\thttps://93.184.215.14/hooks\tfeedback.created,feedback.deleted`),
    ]);
    expect(listed.stdout.join('\n')).not.toContain(added.stdout[0]);
    const deliveries = await cli('webhooks', 'deliveries', endpoint.id, '--org', orgId);
    expect(deliveries).toMatchObject({ code: 0, stdout: [], stderr: '0 of 0 deliveries' });

    expect((await cli('webhooks', 'remove', endpoint.id, '--org', orgId)).code).toBe(0);
    expect((await cli('webhooks', 'list', '--org', orgId)).stdout).toEqual([]);
  });

  test.each([
    [
      ['webhooks', 'add', '--org', 'o', '--url', 'http://93.184.215.14/', '--events', 'feedback.created'],
      'url must use https',
    ],
    [
      ['webhooks', 'add', '--org', 'o', '--url', 'https://10.0.0.1/', '--events', 'feedback.created'],
      '10.0.0.1 is a private',
    ],
    [['webhooks', 'add', '--org', 'o', '--url', 'https://93.184.215.14/', '--events', 'nope'], 'events must be among'],
    [['webhooks', 'add', '--org', 'o'], 'webhooks add needs --url URL and --events'],
    [['webhooks', 'remove', '6561f0c2a1b2c3d4e5f60718', '--org', 'o'], 'Webhook endpoint not found'],
    [['webhooks', 'list'], 'webhooks list needs --org ORG'],
  ])('when the command is %j, then it exits 2 naming the problem', async (args, message) => {
    const result = await cli(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });
});
