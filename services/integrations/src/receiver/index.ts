export { startIntegrationsReceiver } from './startReceiver';
