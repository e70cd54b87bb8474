import { gql } from '@urql/core';

const SESSION_FIELDS = `
  member { id email name role }
  organization { id name tier }
  csrfToken
  expiresAt
`;

export const ME_QUERY = gql`query Me { me { ${SESSION_FIELDS} } }`;
export const SIGN_IN_MUTATION = gql`mutation SignIn($email: String!, $password: String!) { signIn(email: $email, password: $password) { ${SESSION_FIELDS} } }`;
export const SIGN_OUT_MUTATION = gql`
  mutation SignOut {
    signOut
  }
`;
export const ACCEPT_INVITATION = gql`mutation AcceptInvitation($token: String!, $name: String!, $password: String!) {
  acceptInvitation(token: $token, name: $name, password: $password) { ${SESSION_FIELDS} }
}`;
export const REQUEST_PASSWORD_RESET = gql`
  mutation RequestPasswordReset($email: String!) {
    requestPasswordReset(email: $email)
  }
`;
export const RESET_PASSWORD = gql`
  mutation ResetPassword($token: String!, $password: String!) {
    resetPassword(token: $token, password: $password)
  }
`;

export type Role = 'owner' | 'admin' | 'member' | 'viewer';

export interface Session {
  member: { id: string; email: string; name: string; role: Role };
  organization: { id: string; name: string; tier: string };
  csrfToken: string;
  expiresAt: string;
}
