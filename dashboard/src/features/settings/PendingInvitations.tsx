import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { ConfirmDialog } from '../../lib/ConfirmDialog';
import { errorInWords } from '../../lib/errorInWords';
import { formatTime } from '../../lib/formatTime';
import { StatusMessage } from '../layout/StatusMessage';
import { CANCEL_INVITATION_MUTATION, INVITATIONS_QUERY, type Invitation } from './memberQueries';

/**
 * Read again after any mutation that answers an Invitation (inviteMember), even while the list is empty and
 * so holds none (urql's document cache refreshes a query by the types in its result).
 */
const REFRESHED_BY_INVITATIONS = { additionalTypenames: ['Invitation'] };

/**
 * The invitations not yet accepted, for owners and admins, each with who sent it and until when it works;
 * a cancelled one's link stops working at once.
 */
export function PendingInvitations() {
  const [{ data, error }, reexecute] = useQuery({ query: INVITATIONS_QUERY, context: REFRESHED_BY_INVITATIONS });
  const [cancelling, setCancelling] = useState<Invitation | null>(null);
  const reload = () => reexecute({ requestPolicy: 'network-only' });
  if (error)
    return (
      <StatusMessage error retry={reload}>
        {errorInWords(error)}
      </StatusMessage>
    );
  if (!data || data.invitations.length === 0) return null;
  return (
    <>
      <h3 id="invitations-title">Pending invitations</h3>
      <div className="table-wrap" role="region" aria-labelledby="invitations-title" tabIndex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Invited by</th>
              <th scope="col">Works until</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.invitations.map((invitation) => (
              <tr key={invitation.id}>
                <th scope="row">{invitation.email}</th>
                <td data-label="Role">{invitation.role}</td>
                <td data-label="Invited by">{invitation.invitedBy}</td>
                <td data-label="Works until">{formatTime(invitation.expiresAt)}</td>
                <td>
                  <button
                    type="button"
                    className="danger"
                    aria-label={`Cancel the invitation of ${invitation.email}`}
                    onClick={() => setCancelling(invitation)}
                  >
                    Cancel
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {cancelling && (
        <CancelInvitationDialog invitation={cancelling} onDone={reload} onClose={() => setCancelling(null)} />
      )}
    </>
  );
}

function CancelInvitationDialog({
  invitation,
  onDone,
  onClose,
}: {
  invitation: Invitation;
  onDone: () => void;
  onClose: () => void;
}) {
  const [{ fetching }, cancel] = useMutation(CANCEL_INVITATION_MUTATION);
  return (
    <ConfirmDialog
      title={`Cancel the invitation of ${invitation.email}?`}
      confirmLabel="Cancel invitation"
      busy={fetching}
      run={() => cancel({ id: invitation.id })}
      onDone={onDone}
      onClose={onClose}
    >
      <p>The link they were sent stops working at once.</p>
    </ConfirmDialog>
  );
}
