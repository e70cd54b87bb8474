import { gql } from '@urql/core';

const KEY_FIELDS = 'id name hint readOnly rateLimitPerMinute createdBy createdAt lastUsedAt revokedAt';

export const API_KEYS_QUERY = gql`query ApiKeys { apiKeys { ${KEY_FIELDS} } }`;
export const CREATE_API_KEY_MUTATION = gql`mutation CreateApiKey($name: String!, $readOnly: Boolean!) { createApiKey(name: $name, readOnly: $readOnly) { key apiKey { ${KEY_FIELDS} } } }`;
export const REVOKE_API_KEY_MUTATION = gql`mutation RevokeApiKey($id: ID!) { revokeApiKey(id: $id) { ${KEY_FIELDS} } }`;

export interface ApiKey {
  id: string;
  name: string;
  hint: string;
  readOnly: boolean;
  rateLimitPerMinute: number | null;
  createdBy: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}
