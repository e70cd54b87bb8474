// The documents are in scim.graphql; `npm run codegen` types them against the admin API.
import type { ScimTokenFieldsFragment } from '../../generated/graphql';

export {
  ScimTokensDocument as SCIM_TOKENS_QUERY,
  CreateScimTokenDocument as CREATE_SCIM_TOKEN_MUTATION,
  RevokeScimTokenDocument as REVOKE_SCIM_TOKEN_MUTATION,
} from '../../generated/graphql';

export type ScimToken = ScimTokenFieldsFragment;
