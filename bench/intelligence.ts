import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Types } from 'mongoose';
import { Registry } from 'prom-client';
import {
  computeThemes,
  computeVectorThemes,
  curateDemoTaxonomy,
  loadFeedbackConfig,
  modelThemesOf,
  recomputeThemes,
  themeComputationModel,
  ThemeStore,
} from '@fi/feedback';
import { createLogger } from '@fi/shared';
import { openDatabases, seedOrganization } from '@fi/cli';
import { ModelServer } from '../test/helpers/modelServer';
import { startStack } from '../test/helpers/stack';

/** Items of the organization whose themes are recomputed and whose items are asked for similar ones. */
export const THEMED_ITEMS = 10_000;
/** A second, smaller organization: requests alternate organizations as users' do. */
const OTHER_ITEMS = 1_000;
const SIMILAR_REQUESTS = 400;
const SIMILAR = `query($k: String!, $id: String!) { feedbackItem(apiKey: $k, id: $id) { id similar(take: 5) { score item { id title } } } }`;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

interface Variant {
  name: 'local' | 'model';
  /** The model server standing in for the organization's (the test one), or none. */
  model: ModelServer | null;
}

/** The embedding model's name given to the services in the variant with a model. */
const BENCH_EMBEDDING_MODEL = 'bench-embed';

const modelEnv = (model: ModelServer) => ({
  OPENAI_BASE_URL: model.url,
  OPENAI_API_KEY: 'bench',
  AI_EMBEDDING_MODEL: BENCH_EMBEDDING_MODEL,
  AI_FEATURES: 'similar,themes,assignment',
  AI_INTERVAL_MS: '200',
  // Every item embedded as fast as the worker can: the bench measures the answers once they are in.
  AI_ITEMS_PER_MINUTE: '1000000',
});

/**
 * `npm run bench -- --intelligence`: the theme computation of an organization of 10,000 items in process,
 * a whole recomputation with its writes of the same organization, a changed taxonomy applied to all its
 * items, and `similar(take: 5)` through the gateway, one request at a time, each for a different item,
 * alternating two organizations; first with the local methods, then with an embedding model (the test
 * model server, test/helpers/modelServer.ts, standing in for the organization's: every item embedded
 * before the figures are taken, as the worker does in the background).
 */
export async function runIntelligenceBench(
  uri: string,
  redisUrl: string,
  say: (line: string) => void,
): Promise<Record<string, unknown>> {
  const result: Record<string, unknown> = {};
  for (const name of ['local', 'model'] as const) {
    const model = name === 'model' ? await ModelServer.start() : null;
    try {
      say(`--- ${name === 'model' ? 'With an embedding model (the test model server)' : 'Local methods'}`);
      const load = os.loadavg();
      result[name] = { loadAverageBefore: load, ...(await measure(uri, redisUrl, say, { name, model })) };
      say(`Load average (1, 5, 15 min) before: ${load.map((x) => x.toFixed(1)).join(', ')}`);
    } finally {
      await model?.close();
    }
  }
  writeFileSync(
    path.join(__dirname, 'results', 'latest-intelligence.json'),
    `${JSON.stringify({ measuredAt: new Date().toISOString(), ...result }, null, 2)}\n`,
  );
  return result;
}

async function measure(
  uri: string,
  redisUrl: string,
  say: (line: string) => void,
  variant: Variant,
): Promise<Record<string, unknown>> {
  const database = `bench_intel_${variant.name}_${Date.now()}`;
  const env = {
    MONGODB_URI: uri,
    REDIS_URL: redisUrl,
    THEMES_INTERVAL_MS: '0',
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
    IDENTITY_SIGNING_KEYS: `bench:${randomBytes(32).toString('base64url')}`,
    INTEGRATIONS_SECRET_KEY: randomBytes(32).toString('hex'),
    ...(variant.model ? modelEnv(variant.model) : {}),
  };
  const stack = await startStack(env, { databases: { feedback: database } });
  const db = await openDatabases({ MONGODB_URI: uri, FEEDBACK_MONGODB_DB: database });
  try {
    const big = await stack.createKey();
    const small = await stack.createKey();
    const quiet = { result: () => undefined, info: say };
    say(`Seeding ${THEMED_ITEMS.toLocaleString('en')} and ${OTHER_ITEMS.toLocaleString('en')} feedback items...`);
    await seedOrganization(big.orgId, { feedback: THEMED_ITEMS, contacts: 0, accounts: 0 }, db, quiet, {
      feedbackOnly: true,
    });
    await seedOrganization(small.orgId, { feedback: OTHER_ITEMS, contacts: 0, accounts: 0 }, db, quiet, {
      feedbackOnly: true,
      seed: 7,
    });

    const ready = new Set<string>();
    const computation = variant.model
      ? themeComputationModel(
          modelThemesOf(db.feedback, loadFeedbackConfig(env), new Registry()),
          new ThemeStore(db.feedback),
          (orgId) => ready.add(orgId),
          1_000,
          createLogger('bench', 'silent'),
        )
      : undefined;
    let embedMs: number | null = null;
    if (variant.model) {
      // Every item embedded by the stack's worker, as it does in the background.
      const started = performance.now();
      const vectors = db.feedback.collection('ai_item_vectors');
      const expected = THEMED_ITEMS + OTHER_ITEMS;
      while ((await vectors.countDocuments({ model: BENCH_EMBEDDING_MODEL })) < expected)
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      embedMs = performance.now() - started;
      say(`${expected.toLocaleString('en')} items embedded by the worker in ${(embedMs / 1000).toFixed(1)} s`);
    }

    // The computation itself (reading texts, grouping, naming) on 10,000 items, in process...
    const texts = (
      await db.feedback
        .collection('feedback_items')
        .find({ orgId: big.orgId }, { projection: { title: 1, content: 1 } })
        .toArray()
    ).map((doc) => ({
      id: (doc._id as Types.ObjectId).toHexString(),
      title: doc.title as string,
      text: doc.content as string,
    }));
    const newId = () => `th_${new Types.ObjectId().toHexString()}`;
    const vectors = computation?.vectors ? await computation.vectors.all(big.orgId) : null;
    let started = performance.now();
    const computed = (vectors && computeVectorThemes(texts, vectors, [], newId)) || computeThemes(texts, [], newId);
    const computeMs = performance.now() - started;
    say(
      `Themes of ${texts.length.toLocaleString('en')} items computed in process: ${computed.themes.length} themes in ${(computeMs / 1000).toFixed(1)} s`,
    );
    // ... and a whole recomputation with its writes, as the service runs it, on the same 10,000 items (the
    // first writes every item's themes, the second follows 20 new items).
    const store = new ThemeStore(db.feedback);
    started = performance.now();
    const firstThemes = await recomputeThemes(store, big.orgId, new Date(), computation);
    const firstMs = performance.now() - started;
    await seedOrganization(big.orgId, { feedback: 20, contacts: 0, accounts: 0 }, db, quiet, {
      feedbackOnly: true,
      seed: 11,
    });
    started = performance.now();
    await recomputeThemes(store, big.orgId, new Date(), computation);
    const steadyMs = performance.now() - started;
    say(
      `Recomputation with writes, ${THEMED_ITEMS.toLocaleString('en')} items: ${firstThemes} themes, first ${(firstMs / 1000).toFixed(1)} s, after 20 new items ${(steadyMs / 1000).toFixed(1)} s`,
    );
    // A changed taxonomy applied to every item: the demo's six curated themes written, then the computation
    // that assigns them (and the suggestions) to all 10,000 items, as the worker's next pass does.
    // With a model, that computation has the themes' profiles embedded and waits for them (up to
    // PROFILE_WAIT_MS): when they came later, it assigned by terms, and the next one, once they are in,
    // assigns by the vectors: both are then timed.
    const curatedThemes = await curateDemoTaxonomy(db.feedback, big.orgId);
    const items = db.feedback.collection('feedback_items');
    const byModelCount = () => items.countDocuments({ orgId: big.orgId, 'themeMatches.assignedBy': 'model' });
    started = performance.now();
    await recomputeThemes(store, big.orgId, new Date(), computation);
    let curatedMs = performance.now() - started;
    let computations = 1;
    if (computation && (await byModelCount()) === 0) {
      // The wait for the profiles is part of the time; the count above is not.
      started = performance.now();
      while (!ready.has(big.orgId)) await new Promise((resolve) => setTimeout(resolve, 50));
      await recomputeThemes(store, big.orgId, new Date(), computation);
      curatedMs += performance.now() - started;
      computations += 1;
    }
    const assigned = await items.countDocuments({ orgId: big.orgId, 'themeMatches.0': { $exists: true } });
    const byModel = await byModelCount();
    say(
      `Curated taxonomy of ${curatedThemes} themes applied to ${THEMED_ITEMS.toLocaleString('en')} items with writes: ${(curatedMs / 1000).toFixed(1)} s in ${computations} computation(s) (goal 60 s), ${assigned.toLocaleString('en')} items with a curated theme (${byModel.toLocaleString('en')} by the model)`,
    );

    const idsOf = async (orgId: string) =>
      (
        await db.feedback
          .collection('feedback_items')
          .find({ orgId }, { projection: { _id: 1 } })
          .limit(SIMILAR_REQUESTS)
          .toArray()
      ).map((doc) => (doc._id as Types.ObjectId).toHexString());
    const orgs = [
      { key: big.key, ids: await idsOf(big.orgId) },
      { key: small.key, ids: await idsOf(small.orgId) },
    ];
    // The first question of an organization builds its index (reported apart); the timed ones use it.
    const builds: number[] = [];
    for (const org of orgs) {
      const t = performance.now();
      await stack.gql(SIMILAR, { k: org.key, id: org.ids[0] });
      builds.push(performance.now() - t);
    }
    const times: number[] = [];
    for (let n = 0; n < SIMILAR_REQUESTS; n += 1) {
      const org = orgs[n % 2];
      const t = performance.now();
      const response = await stack.gql<{ feedbackItem: { similar: unknown[] } }>(SIMILAR, {
        k: org.key,
        id: org.ids[(n >> 1) % org.ids.length],
      });
      times.push(performance.now() - t);
      if (response.body.errors)
        throw new Error(`similar answered with errors: ${JSON.stringify(response.body.errors).slice(0, 300)}`);
    }
    times.sort((a, b) => a - b);
    const result = {
      ...(embedMs !== null ? { embeddedSeconds: embedMs / 1000 } : {}),
      themes: {
        computedInProcess: {
          items: texts.length,
          themes: computed.themes.length,
          seconds: computeMs / 1000,
          goalSeconds: 60,
        },
        recomputedWithWrites: {
          items: THEMED_ITEMS,
          themes: firstThemes,
          firstSeconds: firstMs / 1000,
          afterTwentyNewSeconds: steadyMs / 1000,
        },
        curatedTaxonomyApplied: {
          items: THEMED_ITEMS,
          curatedThemes,
          itemsWithCuratedTheme: assigned,
          itemsAssignedByModel: byModel,
          computations,
          seconds: curatedMs / 1000,
          goalSeconds: 60,
        },
      },
      similar: {
        requests: SIMILAR_REQUESTS,
        organizations: [THEMED_ITEMS, OTHER_ITEMS],
        p50Ms: percentile(times, 50),
        p95Ms: percentile(times, 95),
        maxMs: times[times.length - 1],
        indexBuildMs: builds,
        goalP50Ms: 50,
      },
    };
    say(
      `similar(take: 5) through the gateway: p50 ${result.similar.p50Ms.toFixed(1)} ms, p95 ${result.similar.p95Ms.toFixed(1)} ms (first question per organization, which builds its index: ${builds.map((b) => b.toFixed(0)).join(' / ')} ms)`,
    );
    return result;
  } finally {
    await db.feedback.dropDatabase().catch(() => undefined);
    await db.close();
    await stack.close();
  }
}
