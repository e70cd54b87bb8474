// The CLI's public face: what the tests, the bench and the scripts may use. The process entry is main.ts;
// the embedded-database helpers are `@fi/cli/embedded` (they load no service).
export { runCli, USAGE } from './runCli';
export { CLI_MAX_TIME_MS, openDatabases, type Databases } from './databases';
export type { Output } from './output';
export { seedOrganization } from './commands/seed';
export { COMPANY_STEMS, TOPICS } from './seed/vocabulary';
export { readyStatus, spawnService, waitUntilReady, type ServiceProcess } from './stack/serviceProcess';
export { SupervisedService, type SupervisorEvents } from './stack/supervisor';
export { stackConfigSchema } from './stack/stackConfig';
export { curlExample, readDemoOwner } from './stack/demo';
export { readRunningStack } from './stack/stackFile';
export { buildDashboard, DASHBOARD_DIST } from './stack/dashboardBuild';
