import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { ConfirmDialog } from '../../lib/ConfirmDialog';
import { ErrorLine } from '../../lib/ErrorLine';
import { errorInWords } from '../../lib/errorInWords';
import { formatTime } from '../../lib/formatTime';
import { canManageMembers } from '../auth/roles';
import { useSignedIn } from '../auth/SessionProvider';
import type { Role } from '../auth/sessionQueries';
import { StatusMessage } from '../layout/StatusMessage';
import {
  CHANGE_ROLE_MUTATION,
  INVITE_MEMBER_MUTATION,
  MEMBERS_QUERY,
  REMOVE_MEMBER_MUTATION,
  ROLES,
  type Member,
} from './memberQueries';
import { PendingInvitations } from './PendingInvitations';

export function MembersSection() {
  const session = useSignedIn();
  const manage = canManageMembers(session.member.role);
  const [{ data, error, fetching }, reexecute] = useQuery({ query: MEMBERS_QUERY });
  const [, changeRole] = useMutation(CHANGE_ROLE_MUTATION);
  const [actionError, setActionError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const reload = () => reexecute({ requestPolicy: 'network-only' });

  const onRole = async (member: Member, role: Role) => {
    setActionError(null);
    const result = await changeRole({ memberId: member.id, role });
    if (result.error) setActionError(errorInWords(result.error));
    reload();
  };

  return (
    <section aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      {!manage && <p className="hint">Only owners and admins can invite, change roles or remove members.</p>}
      {manage && <InviteForm />}
      {manage && <PendingInvitations />}
      <ErrorLine error={actionError} />
      {error && (
        <StatusMessage error retry={reload}>
          {errorInWords(error)}
        </StatusMessage>
      )}
      {!data && fetching && <StatusMessage>Loading members…</StatusMessage>}
      {data && (
        <div className="table-wrap" role="region" aria-label="Members" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Joined</th>
                {manage && (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {data.members.map((member) => (
                <tr key={member.id}>
                  <th scope="row">
                    {member.name}
                    {member.id === session.member.id && ' (you)'}
                  </th>
                  <td data-label="Email">{member.email}</td>
                  <td data-label="Role">
                    {manage ? (
                      <select
                        aria-label={`Role of ${member.email}`}
                        value={member.role}
                        onChange={(e) => void onRole(member, e.target.value as Role)}
                      >
                        {ROLES.map((role) => (
                          <option key={role} value={role}>
                            {role}
                          </option>
                        ))}
                      </select>
                    ) : (
                      member.role
                    )}
                  </td>
                  <td data-label="Joined">{formatTime(member.createdAt)}</td>
                  {manage && (
                    <td>
                      {member.id !== session.member.id && (
                        <button type="button" className="danger" onClick={() => setRemoving(member)}>
                          Remove
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {removing && <RemoveMemberDialog member={removing} onDone={reload} onClose={() => setRemoving(null)} />}
    </section>
  );
}

function RemoveMemberDialog({ member, onDone, onClose }: { member: Member; onDone: () => void; onClose: () => void }) {
  const [{ fetching }, remove] = useMutation(REMOVE_MEMBER_MUTATION);
  return (
    <ConfirmDialog
      title={`Remove ${member.email}?`}
      confirmLabel="Remove"
      busy={fetching}
      run={() => remove({ memberId: member.id })}
      onDone={onDone}
      onClose={onClose}
    >
      <p>They are signed out everywhere at once and can no longer sign in.</p>
    </ConfirmDialog>
  );
}

/** Mails a single-use link (the identity service's rules: only an owner invites an owner). */
function InviteForm() {
  const [{ fetching }, invite] = useMutation(INVITE_MEMBER_MUTATION);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await invite({ email: email.trim(), role });
    setError(result.error ? errorInWords(result.error) : null);
    setSent(result.error ? null : email.trim());
    if (!result.error) setEmail('');
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label="Invite a member">
      <label>
        Invite by email
        <input type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <label>
        Role
        <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
          {ROLES.map((choice) => (
            <option key={choice} value={choice}>
              {choice}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={fetching}>
        Send invitation
      </button>
      <ErrorLine error={error} />
      {sent && <p role="status">An invitation is on its way to {sent}.</p>}
    </form>
  );
}
