import { Writable } from 'node:stream';

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
