// The documents are in settings.graphql; `npm run codegen` types them against the admin API.
import type { InvitationsQuery, MemberFieldsFragment, Role } from '../../generated/graphql';

export {
  CancelInvitationDocument as CANCEL_INVITATION_MUTATION,
  ChangeRoleDocument as CHANGE_ROLE_MUTATION,
  InvitationsDocument as INVITATIONS_QUERY,
  InviteMemberDocument as INVITE_MEMBER_MUTATION,
  MembersDocument as MEMBERS_QUERY,
  RemoveMemberDocument as REMOVE_MEMBER_MUTATION,
} from '../../generated/graphql';

export const ROLES: Role[] = ['owner', 'admin', 'member', 'viewer'];

export type Member = MemberFieldsFragment;

export type Invitation = InvitationsQuery['invitations'][number];
