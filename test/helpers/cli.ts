import { type Output, runCli } from '@fi/cli';

/** Runs the CLI in-process, as `npm run cli -- ...args` would, and keeps what it printed. */
export async function cli(...args: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const out: Output = { result: (line) => stdout.push(line), info: (line) => stderr.push(line) };
  const code = await runCli(args, out);
  return { code, stdout, stderr: stderr.join('\n') };
}
