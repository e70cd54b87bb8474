import { ConfigError } from './config';
import { createLogger, type Logger } from './logger';
import { stopTelemetry } from './telemetry';

/**
 * Runs a service's start function as a process: a bad configuration exits 1 with one line per
 * problem; SIGTERM/SIGINT stop accepting, let in-flight requests finish, close connections, exit 0.
 */
export function runMain(start: () => Promise<{ logger: Logger; close(): Promise<void> }>): void {
  start().then(
    ({ logger, close }) => {
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        logger.info({ signal }, 'shutting down');
        close().then(
          () => process.exit(0),
          (error: unknown) => {
            logger.error({ err: error }, 'error during shutdown');
            process.exit(1);
          },
        );
      };
      process.on('SIGTERM', () => stop('SIGTERM'));
      process.on('SIGINT', () => stop('SIGINT'));
    },
    (error: unknown) => {
      if (error instanceof ConfigError) console.error(error.message);
      else console.error('Failed to start:', error);
      process.exit(1);
    },
  );
}

/** A service process: load its config, start it, stop it cleanly on a signal. */
export function runService<C extends { logLevel: string; shutdownTimeoutMs: number }>(
  name: string,
  loadServiceConfig: () => C,
  start: (config: C, logger: Logger) => Promise<{ close(timeoutMs?: number): Promise<void> }>,
): void {
  runMain(async () => {
    const config = loadServiceConfig();
    const logger = createLogger(name, config.logLevel);
    const service = await start(config, logger);
    return {
      logger,
      close: async () => {
        await service.close(config.shutdownTimeoutMs);
        await stopTelemetry();
      },
    };
  });
}
