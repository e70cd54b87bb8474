/** Results go to stdout (so `$(npm run -s cli -- keys create ...)` captures just the key); talk goes to stderr. */
export interface Output {
  result(line: string): void;
  info(line: string): void;
}

export const consoleOutput: Output = {
  result: (line) => process.stdout.write(`${line}\n`),
  info: (line) => process.stderr.write(`${line}\n`),
};

/** A mistake in how the command was called or in its input: exit code 2 with the message alone. */
export class UsageError extends Error {}
