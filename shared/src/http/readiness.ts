export type Check = () => Promise<unknown>;

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, { ok: boolean; detail?: string }>;
}

const CHECK_TIMEOUT_MS = 2_000;

/** Runs every check in parallel, each bounded in time, and says which one is failing and why. */
export async function checkReadiness(checks: Record<string, Check>): Promise<ReadinessReport> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      });
      try {
        await Promise.race([check(), timeout]);
        return [name, { ok: true }] as const;
      } catch (error) {
        return [name, { ok: false, detail: (error as Error).message }] as const;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return { ready: entries.every(([, result]) => result.ok), checks: Object.fromEntries(entries) };
}
