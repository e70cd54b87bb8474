// The documents are in settings.graphql; `npm run codegen` types them against the admin API.
import type { ApiKeyFieldsFragment } from '../../generated/graphql';

export {
  ApiKeysDocument as API_KEYS_QUERY,
  CreateApiKeyDocument as CREATE_API_KEY_MUTATION,
  RevokeApiKeyDocument as REVOKE_API_KEY_MUTATION,
} from '../../generated/graphql';

export type ApiKey = ApiKeyFieldsFragment;
