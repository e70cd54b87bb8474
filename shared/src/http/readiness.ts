export type Check = () => Promise<unknown>;

/**
 * An optional check reports a degraded service when it fails, but the service stays ready. `details`
 * adds what an operator needs next to the check's result, whether it passed or not.
 */
export type ReadinessCheck = Check | { check: Check; optional?: true; details?: () => Record<string, unknown> };

export interface ReadinessReport {
  ready: boolean;
  status: 'ready' | 'degraded' | 'not ready';
  checks: Record<string, { ok: boolean; optional?: true; detail?: string; [detail: string]: unknown }>;
}

const CHECK_TIMEOUT_MS = 2_000;

/** Runs every check in parallel, each bounded in time, and says which one is failing and why. */
export async function checkReadiness(checks: Record<string, ReadinessCheck>): Promise<ReadinessReport> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, entry]) => {
      const optional = typeof entry === 'function' ? undefined : entry.optional;
      const check = typeof entry === 'function' ? entry : entry.check;
      const details = typeof entry === 'function' ? undefined : entry.details;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      });
      try {
        await Promise.race([check(), timeout]);
        return [name, { ok: true, ...(optional ? { optional } : {}), ...details?.() }] as const;
      } catch (error) {
        return [
          name,
          { ok: false, ...(optional ? { optional } : {}), ...details?.(), detail: (error as Error).message },
        ] as const;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const ready = entries.every(([, result]) => result.ok || result.optional);
  const degraded = entries.some(([, result]) => !result.ok);
  return { ready, status: !ready ? 'not ready' : degraded ? 'degraded' : 'ready', checks: Object.fromEntries(entries) };
}
