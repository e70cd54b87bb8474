// Run as a process by tracing.e2e.test.ts: what a service's telemetry bootstrap loads and logs with the given environment.
import { startTelemetry } from '@fi/shared/telemetry';
import { Writable } from 'node:stream';
import { createLogger } from '@fi/shared';

startTelemetry('probe');
let logLine: unknown = null;
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logLine = JSON.parse(chunk.toString());
    done();
  },
});
createLogger('probe', 'info', sink).info('hello');
const sdkLoaded = Object.keys(require.cache).some((file) => file.includes('@opentelemetry/sdk-trace'));
console.log(JSON.stringify({ sdkLoaded, logLine }));
