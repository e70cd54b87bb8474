import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/** Runs lowerPriority in a child process (never in the test's own) and reports the nice value of its every thread. */
function nicesAfter(nice: number): number[] {
  const script = `
    const { readdirSync, readFileSync } = require('node:fs');
    const { lowerPriority } = require('./shared/src/workerPriority');
    const warnings = [];
    lowerPriority(${nice}, { warn: (...args) => warnings.push(args) });
    if (warnings.length > 0) throw new Error('refused: ' + JSON.stringify(warnings));
    // A thread started afterwards (libuv's pool, on the first file read) inherits the priority.
    readFileSync('/proc/self/stat');
    const nices = readdirSync('/proc/self/task').map((tid) =>
      Number(readFileSync('/proc/self/task/' + tid + '/stat', 'utf8').split(') ')[1].split(' ')[16]),
    );
    process.stdout.write(JSON.stringify(nices));
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  return JSON.parse(out) as number[];
}

const linux = process.platform === 'linux' ? it : it.skip;

linux('when a worker lowers its priority, then every thread of its process runs at that nice value', () => {
  const nices = nicesAfter(10);
  expect(nices.length).toBeGreaterThan(1);
  expect(new Set(nices)).toEqual(new Set([10]));
});

linux('when WORKER_NICE is 0, then the process keeps the priority it was started with', () => {
  expect(new Set(nicesAfter(0))).toEqual(new Set([os.getPriority()]));
});
