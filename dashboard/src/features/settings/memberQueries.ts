// The documents are in settings.graphql; `npm run codegen` types them against the admin API.
import type { MemberFieldsFragment, Role } from '../../generated/graphql';

export {
  ChangeRoleDocument as CHANGE_ROLE_MUTATION,
  InviteMemberDocument as INVITE_MEMBER_MUTATION,
  MembersDocument as MEMBERS_QUERY,
  RemoveMemberDocument as REMOVE_MEMBER_MUTATION,
} from '../../generated/graphql';

export const ROLES: Role[] = ['owner', 'admin', 'member', 'viewer'];

export type Member = MemberFieldsFragment;
