// The gateway's public face: what the CLI, the tests and the bench may use. The process entry is main.ts.
export { gatewayConfigSchema, loadGatewayConfig, type GatewayConfig } from './config';
export { startGateway } from './server';
export { LiveInstances } from './rateLimit/liveInstances';
