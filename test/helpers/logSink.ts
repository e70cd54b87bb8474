import { Writable } from 'node:stream';
import { eventually } from './processes';

/** Collects the JSON log lines services write, for tests that read them. */
export class LogSink extends Writable {
  private text = '';

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }

  get raw(): string {
    return this.text;
  }

  lines(): Array<Record<string, unknown>> {
    return this.text
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }
}

/**
 * The last single-use link the identity service logged (development: no SMTP_URL) for `email`, once it
 * is in `logs`.
 */
export async function loggedLink(logs: LogSink, email: string, purpose: 'invitation' | 'password reset'): Promise<URL> {
  let link: URL | null = null;
  await eventually(
    () => {
      const line = logs
        .lines()
        .reverse()
        .find((entry) => entry.to === email && entry.purpose === purpose);
      link = line ? new URL(String(line.link)) : null;
      return link !== null;
    },
    20_000,
    `the ${purpose} link for ${email}`,
  );
  return link as unknown as URL;
}
