import { readRunningStack } from './stackFile';

/**
 * `npm run start:gateway`: one more gateway instance. Settings not given in the environment are taken
 * from a running `npm start` (database, subgraph URLs, Redis), so `PORT=4100 npm run start:gateway`
 * just works beside it.
 */
const stack = readRunningStack();
if (stack) {
  const fromStack: Record<string, string | undefined> = {
    MONGODB_URI: stack.mongodbUri,
    REDIS_URL: stack.redisUrl,
    FEEDBACK_URL: stack.subgraphUrls.feedback,
    CONTACTS_URL: stack.subgraphUrls.contacts,
    ACCOUNTS_URL: stack.subgraphUrls.accounts,
    INTEGRATIONS_URL: stack.subgraphUrls.integrations,
  };
  for (const [name, value] of Object.entries(fromStack)) {
    if (value && !process.env[name]) process.env[name] = value;
  }
}
// Loaded only after the environment is complete: the gateway reads its config as it loads.
void import('@fi/gateway/main');
