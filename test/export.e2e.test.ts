import { Types } from 'mongoose';
import { FEEDBACK_EXPORT_COLUMNS, feedbackImporter } from '@fi/feedback';
import { KeyService, MemberService, openRepositories, OPERATOR } from '@fi/identity';
import type { Role } from '@fi/shared';
import { memberPrincipal, serviceAdmin } from './helpers/admin';
import { download, exportOperations, ndjsonRows, settledExport, startExport, type ExportJob } from './helpers/exports';
import { insertAccounts, insertContacts } from './helpers/fixtures';
import { eventually } from './helpers/processes';
import { startStack, type Stack } from './helpers/stack';
import { ADD_ENDPOINT, FAST_WEBHOOKS } from './helpers/webhookQueries';
import { WebhookReceiver } from './helpers/webhookReceiver';

const PUBLIC_URL = 'https://api.example.test';

let stack: Stack;
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  // Small pages, so every export here is written as several parts.
  stack = await startStack({
    ...FAST_WEBHOOKS,
    EXPORT_PUBLIC_URL: PUBLIC_URL,
    EXPORT_PAGE_SIZE: '10',
    EXPORT_POLL_MS: '100',
  });
});
afterAll(async () => {
  await stack.close();
  await receiver.close();
});

const STATUSES = ['unread', 'read', 'archived'] as const;

/** Stores `count` items the way the CLI's import does, with fields a CSV must quote. */
async function seedFeedback(orgId: string, count: number): Promise<string[]> {
  const importFeedback = await feedbackImporter(await stack.connect('feedback'), () => undefined);
  const base = Date.now() - 60_000;
  await importFeedback(
    orgId,
    Array.from({ length: count }, (_, i) => ({
      source: i % 2 ? 'api' : 'zendesk',
      title: `Item ${i}, "quoted"`,
      content: `Line one\r\nline two of ${i}`,
      author: i % 5 ? `Author ${i}` : undefined,
      email: `person${i}@example.com`,
      sentiment: 'neutral',
      status: STATUSES[i % 3],
      metadata: { n: i, note: 'a, "b"\nc' },
      publishedDate: new Date(base + i),
      createdAt: new Date(base + i),
    })),
  );
  const list = await stack.gql<{ feedbackItems: { total: number; items: Array<{ id: string }> } }>(
    'query($k: String!) { feedbackItems(apiKey: $k, take: 100) { total items { id } } }',
    { k: (await keyOf(orgId)).key },
  );
  return list.body.data!.feedbackItems.items.map((item) => item.id);
}

const keys = new Map<string, { key: string; orgId: string }>();
async function keyOf(orgId: string, readOnly = false) {
  const name = `${orgId}:${readOnly}`;
  if (!keys.has(name)) keys.set(name, await stack.createKey({ orgId, readOnly }));
  return keys.get(name)!;
}

async function exportedFeedback(key: string, variables: Record<string, unknown> = {}) {
  const started = await startExport(stack, 'feedback', key, variables);
  expect(started.status).toBe('queued');
  expect(started.url).toBeNull();
  const job = await settledExport(stack, 'feedback', key, started.id);
  expect(job).toMatchObject({ status: 'done', progress: 1, error: null });
  return job;
}

/** RFC 4180: quoted fields may hold commas, doubled quotes, CR and LF; records end with CRLF. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted && char === '"' && text[i + 1] === '"') {
      field += '"';
      i += 1;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (!quoted && char === ',') {
      record.push(field);
      field = '';
    } else if (!quoted && char === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else {
      field += char;
    }
  }
  expect(field).toBe('');
  expect(record).toEqual([]);
  return records;
}

describe('feedback export', () => {
  test('when an export finishes, then its url streams every item of the organization once as gzip NDJSON, without an API key', async () => {
    const { key, orgId } = await stack.createKey();
    const ids = await seedFeedback(orgId, 25);
    const other = await stack.createKey();
    await seedFeedback(other.orgId, 3);

    const job = await exportedFeedback(key);

    expect(job).toMatchObject({ resource: 'feedback', format: 'ndjson', count: 25, total: 25 });
    expect(job.url).toMatch(new RegExp(`^${PUBLIC_URL}/exports/feedback\\?token=[0-9a-f]{24}\\.[A-Za-z0-9_-]{43}$`));
    expect(new Date(job.expiresAt!).getTime()).toBeGreaterThan(Date.now() + 100 * 3_600_000);
    const file = await download(stack, job.url!);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/gzip');
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="feedback-export-${job.id}.ndjson.gz"`);
    const rows = ndjsonRows(file.text);
    expect(rows.map((row) => row.id).sort()).toEqual([...ids].sort());
    expect(Object.keys(rows[0])).toEqual([...FEEDBACK_EXPORT_COLUMNS]);
    const first = rows.find((row) => row.title === 'Item 0, "quoted"')!;
    expect(first).toMatchObject({
      source: 'zendesk',
      author: null,
      status: 'unread',
      metadata: { n: 0, note: 'a, "b"\nc' },
      content: 'Line one\r\nline two of 0',
    });
  });

  test('when a filter is given, then the file holds exactly the items feedbackItems lists with it', async () => {
    const { key, orgId } = await stack.createKey();
    await seedFeedback(orgId, 30);
    const listed = await stack.gql<{ feedbackItems: { items: Array<{ id: string }> } }>(
      'query($k: String!) { feedbackItems(apiKey: $k, take: 100, status: "read", source: "api") { items { id } } }',
      { k: key },
    );
    const expected = listed.body.data!.feedbackItems.items.map((item) => item.id).sort();

    const job = await exportedFeedback(key, { filter: { status: 'read', source: 'api' } });

    expect(job.count).toBe(expected.length);
    expect(
      ndjsonRows((await download(stack, job.url!)).text)
        .map((row) => row.id)
        .sort(),
    ).toEqual(expected);
  });

  test('when the format is csv, then the file is RFC 4180 with a header row and metadata as JSON text', async () => {
    const { key, orgId } = await stack.createKey();
    await seedFeedback(orgId, 12);

    const job = await exportedFeedback(key, { format: 'csv' });

    const file = await download(stack, job.url!);
    expect(file.headers.get('content-disposition')).toContain('.csv.gz');
    const [header, ...records] = parseCsv(file.text);
    expect(header).toEqual([...FEEDBACK_EXPORT_COLUMNS]);
    expect(records).toHaveLength(12);
    const row = Object.fromEntries(
      header.map((column, i) => [column, records.find((r) => r[2] === 'Item 3, "quoted"')![i]]),
    );
    expect(row).toMatchObject({
      title: 'Item 3, "quoted"',
      content: 'Line one\r\nline two of 3',
      status: 'unread',
      author: 'Author 3',
    });
    expect(JSON.parse(row.metadata)).toEqual({ n: 3, note: 'a, "b"\nc' });
    expect(new Date(row.createdAt).toISOString()).toBe(row.createdAt);
  });

  test('when text starts like a spreadsheet formula, then every service writes it behind a leading quote', async () => {
    const { key, orgId } = await stack.createKey();
    const importFeedback = await feedbackImporter(await stack.connect('feedback'), () => undefined);
    await importFeedback(orgId, [
      {
        source: 'api',
        title: '=HYPERLINK("https://evil.example")',
        content: '+1+2',
        author: '@SUM(A1)',
        status: 'unread',
        publishedDate: new Date(),
        createdAt: new Date(),
      },
    ]);
    await insertContacts(stack, orgId, [{ name: '-2+3', company: '=1+1' }]);
    await insertAccounts(stack, orgId, [{ name: '@cmd', domain: 'formula.example', score: 0.5 }]);

    const cells = async (resource: 'feedback' | 'contacts' | 'accounts') => {
      const started = await startExport(stack, resource, key, { format: 'csv' });
      const job = await settledExport(stack, resource, key, started.id);
      const [header, record] = parseCsv((await download(stack, job.url!)).text);
      return Object.fromEntries(header.map((column, i) => [column, record[i]]));
    };
    expect(await cells('feedback')).toMatchObject({
      title: `'=HYPERLINK("https://evil.example")`,
      content: "'+1+2",
      author: "'@SUM(A1)",
    });
    expect(await cells('contacts')).toMatchObject({ name: "'-2+3", company: "'=1+1" });
    expect(await cells('accounts')).toMatchObject({ name: "'@cmd", score: '0.5' });
  });

  test('when the organization has no items, then the file is a valid empty gzip file (csv: the header only)', async () => {
    const { key } = await stack.createKey();
    const job = await exportedFeedback(key, { format: 'csv' });
    expect(job).toMatchObject({ count: 0, total: 0 });
    expect(parseCsv((await download(stack, job.url!)).text)).toEqual([[...FEEDBACK_EXPORT_COLUMNS]]);
  });

  test('when the format or a filter is invalid, then BAD_REQUEST names it and nothing is queued', async () => {
    const { key } = await stack.createKey();
    const ops = exportOperations('feedback');
    const badFormat = await stack.gql(ops.start, { k: key, format: 'xlsx' });
    expect(badFormat.body.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_REQUEST', argument: 'format' } });
    const badStatus = await stack.gql(ops.start, { k: key, filter: { status: 'done' } });
    expect(badStatus.body.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_REQUEST', argument: 'status' } });
    const list = await stack.gql<{ jobs: ExportJob[] }>(ops.list, { k: key });
    expect(list.body.data!.jobs).toEqual([]);
  });
});

describe('access', () => {
  test('when a read-only key exports, then it may; another organization sees neither the job nor its items', async () => {
    const writer = await stack.createKey();
    await seedFeedback(writer.orgId, 4);
    const reader = await keyOf(writer.orgId, true);
    const stranger = await stack.createKey();
    await seedFeedback(stranger.orgId, 2);

    const job = await exportedFeedback(reader.key);
    expect(job.count).toBe(4);

    const ops = exportOperations('feedback');
    const foreign = await stack.gql(ops.get, { k: stranger.key, id: job.id });
    expect(foreign.body.errors?.[0]).toMatchObject({ message: 'Export not found', extensions: { code: 'NOT_FOUND' } });
    const foreignList = await stack.gql<{ jobs: ExportJob[] }>(ops.list, { k: stranger.key });
    expect(foreignList.body.data!.jobs.map((j) => j.id)).not.toContain(job.id);
    const ownList = await stack.gql<{ jobs: ExportJob[] }>(ops.list, { k: writer.key });
    expect(ownList.body.data!.jobs.map((j) => j.id)).toEqual([job.id]);
    const strangerJob = await exportedFeedback(stranger.key);
    expect(strangerJob.count).toBe(2);
  });

  test('when the token is wrong or tampered with, then the download is 404 and tells nothing', async () => {
    const { key, orgId } = await stack.createKey();
    await seedFeedback(orgId, 1);
    const job = await exportedFeedback(key);
    const tampered = job.url!.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    for (const url of [
      tampered,
      `${PUBLIC_URL}/exports/feedback?token=${new Types.ObjectId().toHexString()}.x`,
      `${PUBLIC_URL}/exports/feedback`,
    ]) {
      const answer = await download(stack, url);
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.text).errors[0].extensions.code).toBe('NOT_FOUND');
    }
    // The token names one service's file: another resource's route does not serve it.
    expect((await download(stack, job.url!.replace('/exports/feedback', '/exports/contacts'))).status).toBe(404);
    const key2 = await stack.gql(exportOperations('feedback').start, { k: 'fik_invalid' });
    expect(key2.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('links end with the key that made them', () => {
  const identity = async () => openRepositories(await stack.connect('identity'));
  const unknownLink = {
    errors: [{ message: expect.stringContaining('No export file'), extensions: { code: 'NOT_FOUND' } }],
  };
  const expectUnknown = async (url: string) => {
    const answer = await download(stack, url);
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.text)).toEqual(unknownLink);
  };

  test('when the key is revoked, then its links of every service answer as unknown links, and another key keeps its own', async () => {
    const { key, orgId, id } = await stack.createKey();
    const other = await stack.createKey({ orgId });
    await seedFeedback(orgId, 2);
    await insertAccounts(stack, orgId, [{ name: 'Acme' }]);
    const feedback = await exportedFeedback(key);
    const accounts = await settledExport(stack, 'accounts', key, (await startExport(stack, 'accounts', key)).id);
    const kept = await exportedFeedback(other.key);
    expect((await download(stack, feedback.url!)).status).toBe(200);
    expect((await download(stack, accounts.url!)).status).toBe(200);

    await new KeyService(await identity()).revoke(OPERATOR, id);

    await expectUnknown(feedback.url!);
    await expectUnknown(accounts.url!);
    expect(ndjsonRows((await download(stack, kept.url!)).text)).toHaveLength(2);
  });

  test('when the member who created the key is removed, then the links of the key answer as unknown links', async () => {
    const orgId = (await stack.createKey()).orgId;
    const repositories = await identity();
    const members = new MemberService(repositories);
    const add = (role: Role) =>
      members.add(OPERATOR, orgId, {
        email: `${role}-${new Types.ObjectId().toHexString()}@example.com`,
        name: role,
        role,
        password: 'correct horse battery staple',
      });
    const [owner, admin] = [await add('owner'), await add('admin')];
    const made = await new KeyService(repositories).create({ kind: 'member', member: admin, address: null }, orgId, {
      name: 'by an admin',
      readOnly: true,
      rateLimitPerMinute: null,
    });
    await seedFeedback(orgId, 1);
    const job = await exportedFeedback(made.key);
    expect((await download(stack, job.url!)).status).toBe(200);

    await members.remove({ kind: 'member', member: owner, address: null }, admin.id);

    await expectUnknown(job.url!);
  });

  test('when an owner or admin deletes an export, then its link answers as an unknown link; members, viewers and other organizations may not', async () => {
    const { key, orgId } = await stack.createKey();
    await seedFeedback(orgId, 1);
    await insertContacts(stack, orgId, [{ name: 'Ada' }]);
    const feedback = await exportedFeedback(key);
    const contacts = await settledExport(stack, 'contacts', key, (await startExport(stack, 'contacts', key)).id);
    const remove = (resource: 'feedback' | 'contacts', id: string, role: Role, org = orgId) =>
      serviceAdmin(
        stack.subgraphs[resource].url,
        [memberPrincipal(org, role)],
        `mutation($id: String!) { done: delete${resource === 'feedback' ? 'Feedback' : 'Contacts'}Export(id: $id) }`,
        { id },
      );

    for (const role of ['member', 'viewer'] as Role[]) {
      expect((await remove('feedback', feedback.id, role)).errors?.[0]).toMatchObject({
        message: 'Only owners and admins can delete exports',
        extensions: { code: 'FORBIDDEN' },
      });
    }
    const stranger = await remove('feedback', feedback.id, 'owner', (await stack.createKey()).orgId);
    expect(stranger.errors?.[0]).toMatchObject({ message: 'Export not found', extensions: { code: 'NOT_FOUND' } });
    expect((await remove('contacts', feedback.id, 'owner')).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect((await download(stack, feedback.url!)).status).toBe(200);

    expect(await remove('feedback', feedback.id, 'owner')).toEqual({ data: { done: true } });
    expect(await remove('contacts', contacts.id, 'admin')).toEqual({ data: { done: true } });

    await expectUnknown(feedback.url!);
    await expectUnknown(contacts.url!);
    const ops = exportOperations('feedback');
    expect((await stack.gql(ops.get, { k: key, id: feedback.id })).body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect((await remove('feedback', feedback.id, 'owner')).errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});

describe('queue and lifecycle', () => {
  test('when an organization starts several exports, then they run one at a time, oldest first', async () => {
    const { key, orgId } = await stack.createKey();
    await seedFeedback(orgId, 40);
    const started = [];
    for (let i = 0; i < 3; i += 1) started.push(await startExport(stack, 'feedback', key));
    const connection = await stack.connect('feedback');
    const jobs = [];
    for (const job of started) {
      await settledExport(stack, 'feedback', key, job.id);
      jobs.push(await connection.collection('export_jobs').findOne({ _id: new Types.ObjectId(job.id) }));
    }
    for (let i = 1; i < jobs.length; i += 1) {
      expect(jobs[i]!.startedAt.getTime()).toBeGreaterThanOrEqual(jobs[i - 1]!.finishedAt.getTime());
    }
  });

  test('when an export expires, then its url answers 410 and its file is deleted', async () => {
    const { key, orgId } = await stack.createKey();
    await seedFeedback(orgId, 15);
    const job = await exportedFeedback(key);
    const connection = await stack.connect('feedback');
    const _id = new Types.ObjectId(job.id);
    const chunks = connection.collection('export_chunks');
    expect(await chunks.findOne({ _id: `${job.id}:0` as never })).not.toBeNull();

    await connection
      .collection('export_jobs')
      .updateOne({ _id }, { $set: { expiresAt: new Date(Date.now() - 1_000) } });

    expect((await download(stack, job.url!)).status).toBe(410);
    await eventually(
      async () => (await settledExport(stack, 'feedback', key, job.id)).status === 'expired',
      30_000,
      'the export to expire',
    );
    expect(await chunks.findOne({ _id: `${job.id}:0` as never })).toBeNull();
    expect(await chunks.findOne({ _id: `${job.id}:1` as never })).toBeNull();
    expect((await download(stack, job.url!)).status).toBe(410);
  });

  test('when an export finishes, then an export.completed webhook event carries the job and its url', async () => {
    const { key, orgId } = await stack.createKey();
    await seedFeedback(orgId, 2);
    const endpoint = await stack.gql(ADD_ENDPOINT, {
      k: key,
      url: receiver.url,
      events: ['export.completed', 'export.failed'],
    });
    expect(endpoint.body.errors).toBeUndefined();

    const job = await exportedFeedback(key);

    await eventually(
      () =>
        receiver.received.some(
          (r) =>
            r.json.type === 'export.completed' &&
            (r.json.data as unknown as { export: ExportJob }).export.id === job.id,
        ),
      30_000,
      'the export.completed event',
    );
    const event = receiver.received.find((r) => r.json.type === 'export.completed')!;
    expect((event.json.data as unknown as { export: ExportJob }).export).toMatchObject({
      id: job.id,
      status: 'done',
      count: 2,
      url: job.url,
    });
    expect(event.headers['webhook-signature']).toMatch(/^v1,/);
  });
});

describe('contacts and accounts exports', () => {
  test('when contacts are exported with a search, then the contacts service writes the matching ones', async () => {
    const { key, orgId } = await stack.createKey();
    await insertContacts(stack, orgId, [
      { name: 'Ada Lovelace', email: 'ada@acme.com', company: 'Acme', tags: ['vip'] },
      { name: 'Grace Hopper', email: 'grace@navy.mil', company: 'Navy' },
      { name: 'Alan Acme', email: 'alan@example.com' },
    ]);

    const started = await startExport(stack, 'contacts', key, { filter: { search: 'acme' } });
    const job = await settledExport(stack, 'contacts', key, started.id);

    expect(job).toMatchObject({ status: 'done', resource: 'contacts', count: 2 });
    expect(job.url).toMatch(new RegExp(`^${PUBLIC_URL}/exports/contacts\\?token=`));
    const rows = ndjsonRows((await download(stack, job.url!)).text);
    expect(rows.map((row) => row.name).sort()).toEqual(['Ada Lovelace', 'Alan Acme']);
    expect(rows.find((row) => row.name === 'Ada Lovelace')).toMatchObject({
      email: 'ada@acme.com',
      company: 'Acme',
      tags: ['vip'],
      phone: null,
    });
    expect((await download(stack, job.url!.replace('/exports/contacts', '/exports/feedback'))).status).toBe(404);
  });

  test('when accounts are exported as csv, then the accounts service writes them with tags as JSON text', async () => {
    const { key, orgId } = await stack.createKey();
    await insertAccounts(stack, orgId, [
      { name: 'Acme, Inc.', domain: 'acme.com', score: 0.5, tags: ['b2b', 'eu'] },
      { name: 'Globex', domain: 'globex.com' },
    ]);
    const other = await stack.createKey();
    await insertAccounts(stack, other.orgId, [{ name: 'Initech', domain: 'initech.com' }]);

    const started = await startExport(stack, 'accounts', key, { format: 'csv' });
    const job = await settledExport(stack, 'accounts', key, started.id);

    expect(job).toMatchObject({ status: 'done', count: 2 });
    const [header, ...records] = parseCsv((await download(stack, job.url!)).text);
    expect(header).toEqual([
      'id',
      'name',
      'domain',
      'description',
      'website',
      'score',
      'churnRisk',
      'tags',
      'createdAt',
    ]);
    const acme = records.find((record) => record[1] === 'Acme, Inc.')!;
    expect(acme[2]).toBe('acme.com');
    expect(acme[5]).toBe('0.5');
    expect(JSON.parse(acme[7])).toEqual(['b2b', 'eu']);
    expect(records.map((record) => record[1])).not.toContain('Initech');
    const foreign = await stack.gql(exportOperations('accounts').get, { k: other.key, id: job.id });
    expect(foreign.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});
