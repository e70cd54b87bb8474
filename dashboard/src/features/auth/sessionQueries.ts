// The documents are in session.graphql; `npm run codegen` types them against the admin API.
import type { SessionFieldsFragment } from '../../generated/graphql';

export {
  AcceptInvitationDocument as ACCEPT_INVITATION,
  MeDocument as ME_QUERY,
  RequestPasswordResetDocument as REQUEST_PASSWORD_RESET,
  ResetPasswordDocument as RESET_PASSWORD,
  SignInDocument as SIGN_IN_MUTATION,
  SignOutDocument as SIGN_OUT_MUTATION,
} from '../../generated/graphql';
export type { Role } from '../../generated/graphql';

export type Session = SessionFieldsFragment;
