export { startIntegrationsReceiver, type RunningReceiver } from './startReceiver';
