// The documents are in integrations.graphql; `npm run codegen` types them against the admin API.
import type { IntegrationEventsQuery, IntegrationFieldsFragment } from '../../generated/graphql';

export {
  AddIntegrationDocument as ADD_INTEGRATION,
  IntegrationEventsDocument as INTEGRATION_EVENTS,
  IntegrationsDocument as INTEGRATIONS,
  PauseIntegrationDocument as PAUSE_INTEGRATION,
  RemoveIntegrationDocument as REMOVE_INTEGRATION,
  ResumeIntegrationDocument as RESUME_INTEGRATION,
  RotateIntegrationSecretDocument as ROTATE_INTEGRATION_SECRET,
} from '../../generated/graphql';

export type Integration = IntegrationFieldsFragment;
export type IntegrationEvent = IntegrationEventsQuery['integrationEvents'][number];

/**
 * The platforms, what each asks for when it is added (the service checks the same), and what the person
 * pastes where. A webhook's secret is ours (generated); the others' secrets and tokens are the platform's.
 * Zendesk is offered twice: its webhooks pushed to us, or its tickets pulled with an API token. A pull
 * (`pull`) asks how many days its first sync goes back.
 */
export const KINDS = [
  { id: 'webhook', kind: 'webhook', label: 'Webhook (Standard Webhooks)', secret: null, token: null, pull: false },
  { id: 'intercom', kind: 'intercom', label: 'Intercom', secret: "The app's client secret", token: null, pull: false },
  {
    id: 'slack',
    kind: 'slack',
    label: 'Slack',
    secret: "The app's signing secret",
    token: 'Bot token (optional: authors by name)',
    pull: false,
  },
  {
    id: 'zendesk',
    kind: 'zendesk',
    label: 'Zendesk',
    secret: "The webhook's signing secret",
    token: null,
    pull: false,
  },
  {
    id: 'zendesk-pull',
    kind: 'zendesk',
    label: 'Zendesk (pull tickets)',
    secret: null,
    token: 'API token (email/token:API token, or an OAuth token)',
    pull: true,
  },
  {
    id: 'hubspot',
    kind: 'hubspot',
    label: 'HubSpot (contacts and companies)',
    secret: null,
    token: "The private app's access token",
    pull: true,
  },
  { id: 'email', kind: 'email', label: 'Email', secret: null, token: null, pull: false },
] as const;

export const kindLabel = (kind: string) => KINDS.find((entry) => entry.kind === kind)?.label ?? kind;
