/** A one-line progress bar on stderr; silent when stderr is not a terminal, so logs stay clean. */
export function progressBar(label: string, total: number): { update(done: number): void; finish(): void } {
  const tty = process.stderr.isTTY === true;
  const started = Date.now();
  const draw = (done: number) => {
    const width = 30;
    const filled = total === 0 ? width : Math.round((done / total) * width);
    const rate = Math.round(done / Math.max((Date.now() - started) / 1000, 0.001));
    process.stderr.write(
      `\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} (${rate}/s)`,
    );
  };
  return {
    update: (done) => {
      if (tty) draw(done);
    },
    finish: () => {
      if (tty) process.stderr.write('\n');
    },
  };
}
