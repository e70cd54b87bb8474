import { gql } from '@urql/core';
import type { Role } from '../auth/sessionQueries';

const MEMBER_FIELDS = 'id email name role createdAt';

export const MEMBERS_QUERY = gql`query Members { members { ${MEMBER_FIELDS} } }`;
export const CHANGE_ROLE_MUTATION = gql`mutation ChangeRole($memberId: ID!, $role: Role!) { changeRole(memberId: $memberId, role: $role) { ${MEMBER_FIELDS} } }`;
export const REMOVE_MEMBER_MUTATION = gql`
  mutation RemoveMember($memberId: ID!) {
    removeMember(memberId: $memberId)
  }
`;
export const INVITE_MEMBER_MUTATION = gql`
  mutation InviteMember($email: String!, $role: Role!) {
    inviteMember(email: $email, role: $role) {
      email
      role
      expiresAt
    }
  }
`;

export const ROLES: Role[] = ['owner', 'admin', 'member', 'viewer'];

export interface Member {
  id: string;
  email: string;
  name: string;
  role: Role;
  createdAt: string;
}
