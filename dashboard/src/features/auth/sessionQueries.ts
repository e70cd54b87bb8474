import { gql } from '@urql/core';

const SESSION_FIELDS = `
  member { id email name role }
  organization { id name tier }
  csrfToken
  expiresAt
`;

export const ME_QUERY = gql`query Me { me { ${SESSION_FIELDS} } }`;
export const SIGN_IN_MUTATION = gql`mutation SignIn($email: String!, $password: String!) { signIn(email: $email, password: $password) { ${SESSION_FIELDS} } }`;
export const SIGN_OUT_MUTATION = gql`mutation SignOut { signOut }`;

export type Role = 'owner' | 'admin' | 'member' | 'viewer';

export interface Session {
  member: { id: string; email: string; name: string; role: Role };
  organization: { id: string; name: string; tier: string };
  csrfToken: string;
  expiresAt: string;
}
