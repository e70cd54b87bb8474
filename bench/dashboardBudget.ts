import { gzipSync } from 'node:zlib';
import { readDemoOwner, readRunningStack } from '@fi/cli';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../test/helpers/browser';

// `npm run budget:dashboard`: the web application's budgets (docs/dashboard.md), measured against the
// stack `npm start` runs, on its demo data, in Debian's headless Chromium.
const BUDGET = { initialJsGzipKb: 250, firstLoadMs: 1000 };
const RUNS = 7;

/** The JavaScript the first page needs: index.html's module scripts and preloads, as sent (gzip). */
async function initialJavaScript(origin: string): Promise<{ files: string[]; gzipBytes: number }> {
  const html = await (await fetch(`${origin}/sign-in`)).text();
  const files = [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="([^"]+\.js)"/g)].map(
    (match) => match[1],
  );
  let gzipBytes = 0;
  for (const file of files) {
    const response = await fetch(`${origin}${file}`);
    // fetch decodes the body; gzip it again at the level the gateway uses to count what travelled.
    gzipBytes += gzipSync(Buffer.from(await response.arrayBuffer()), { level: 9 }).length;
  }
  return { files, gzipBytes };
}

/** Time from navigation to the page's content being shown, in a fresh browser profile (empty cache). */
async function firstLoads(browser: Browser, origin: string, owner: { email: string; password: string }) {
  const signedIn = await browser.newContext({ baseURL: origin });
  const page = await signedIn.newPage();
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password').fill(owner.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'API keys' }).waitFor();
  const session = await signedIn.storageState();
  await signedIn.close();

  const measure = async (signedInToo: boolean, path: string, shown: (page: Page) => Promise<void>) => {
    const times: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const context = await browser.newContext({ baseURL: origin, ...(signedInToo ? { storageState: session } : {}) });
      const fresh = await context.newPage();
      const started = performance.now();
      await fresh.goto(path);
      await shown(fresh);
      times.push(performance.now() - started);
      await context.close();
    }
    return times.sort((a, b) => a - b);
  };
  return {
    signIn: await measure(false, '/sign-in', (p) => p.getByRole('button', { name: 'Sign in' }).waitFor()),
    apiKeys: await measure(true, '/settings/api-keys', (p) => p.getByRole('table').waitFor()),
    contacts: await measure(true, '/contacts', (p) => p.getByRole('table').waitFor()),
    feedback: await measure(true, '/feedback', (p) => p.getByRole('table').waitFor()),
    insights: await measure(true, '/insights', (p) => p.getByRole('img', { name: /Feedback volume/ }).waitFor()),
  };
}

const median = (sorted: number[]) => sorted[Math.floor(sorted.length / 2)];

async function main(): Promise<void> {
  const stack = readRunningStack();
  const owner = readDemoOwner();
  if (!stack || !owner) {
    console.error(
      'Start the stack first (npm start, which creates the demo owner), then run npm run budget:dashboard.',
    );
    process.exit(1);
  }
  const origin = new URL(stack.gatewayUrl).origin;
  const js = await initialJavaScript(origin);
  const browser = await launchChromium();
  try {
    const loads = await firstLoads(browser, origin, owner);
    const kb = js.gzipBytes / 1024;
    const rows = [
      [
        'Initial JavaScript (gzip)',
        `${kb.toFixed(1)} KB in ${js.files.length} file(s)`,
        `<= ${BUDGET.initialJsGzipKb} KB`,
        kb <= BUDGET.initialJsGzipKb,
      ],
      [
        'First load, sign-in page',
        `median ${median(loads.signIn).toFixed(0)} ms, worst ${loads.signIn.at(-1)!.toFixed(0)} ms of ${RUNS}`,
        `<= ${BUDGET.firstLoadMs} ms`,
        median(loads.signIn) <= BUDGET.firstLoadMs,
      ],
      [
        'First load, API keys (signed in, demo data)',
        `median ${median(loads.apiKeys).toFixed(0)} ms, worst ${loads.apiKeys.at(-1)!.toFixed(0)} ms of ${RUNS}`,
        `<= ${BUDGET.firstLoadMs} ms`,
        median(loads.apiKeys) <= BUDGET.firstLoadMs,
      ],
      ...(
        [
          ['contacts', loads.contacts],
          ['feedback inbox', loads.feedback],
          ['insights', loads.insights],
        ] as const
      ).map(
        ([name, times]) =>
          [
            `First load, ${name} (signed in, demo data)`,
            `median ${median(times).toFixed(0)} ms, worst ${times.at(-1)!.toFixed(0)} ms of ${RUNS}`,
            `<= ${BUDGET.firstLoadMs} ms`,
            median(times) <= BUDGET.firstLoadMs,
          ] as const,
      ),
    ] as const;
    console.log('| Budget | Measured | Limit | |\n|---|---|---|---|');
    for (const [name, measured, limit, ok] of rows)
      console.log(`| ${name} | ${measured} | ${limit} | ${ok ? 'ok' : 'OVER'} |`);
    if (rows.some((row) => !row[3])) process.exitCode = 1;
  } finally {
    await browser.close();
  }
}

void main();
