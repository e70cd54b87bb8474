import { useState, type FormEvent, type ReactNode } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import type { AnyVariables, TypedDocumentNode } from '@urql/core';
import { adminClient } from '../../lib/adminClient';
import { ErrorLine } from '../../lib/ErrorLine';
import { errorInWords } from '../../lib/errorInWords';
import { SecondStepForm } from '../twoFactor/SecondStepForm';
import { secondStepOf, type SecondStep } from '../twoFactor/twoFactorQueries';
import { useSession } from './SessionProvider';
import { ACCEPT_INVITATION, REQUEST_PASSWORD_RESET, RESET_PASSWORD } from './sessionQueries';

/** The pages a mailed link opens (no session needed): the sign-in page's frame around one small form. */
function LinkPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="sign-in">
      <h1>Feedback Intelligence</h1>
      <section className="card" aria-labelledby="link-page-title">
        <h2 id="link-page-title">{title}</h2>
        {children}
      </section>
    </main>
  );
}

/** Runs a mutation of the identity service; resolves to its data, or sets the error in words. */
async function send<Data, Variables extends AnyVariables>(
  query: TypedDocumentNode<Data, Variables>,
  variables: Variables,
  setError: (error: string | null) => void,
): Promise<Data | null> {
  const result = await adminClient.mutation(query, variables).toPromise();
  setError(result.error ? errorInWords(result.error) : null);
  return result.error ? null : (result.data ?? null);
}

/** /accept-invitation?token=...: the invited person names themselves and chooses a password, and is signed in. */
export function AcceptInvitationPage() {
  const { adopt } = useSession();
  const token = useSearchParams()[0].get('token') ?? '';
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [joined, setJoined] = useState(false);
  const [secondStep, setSecondStep] = useState<SecondStep | null>(null);
  if (joined) return <Navigate to="/" replace />;
  if (secondStep)
    return (
      <main className="sign-in">
        <h1>Feedback Intelligence</h1>
        <div className="card">
          <SecondStepForm
            step={secondStep}
            onSignedIn={(session) => {
              adopt(session);
              setJoined(true);
            }}
          />
        </div>
      </main>
    );
  if (!token)
    return (
      <LinkPage title="Accept an invitation">
        This link has no invitation in it: open the link from the email as it is.
      </LinkPage>
    );
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const result = await adminClient.mutation(ACCEPT_INVITATION, { token, name: name.trim(), password }).toPromise();
    setBusy(false);
    // The organization requires two-factor sign-in: the new member sets it up before their session opens.
    const step = secondStepOf(result.error);
    if (step) {
      setSecondStep(step);
      return;
    }
    setError(result.error ? errorInWords(result.error) : null);
    const data = result.error ? null : (result.data ?? null);
    if (data) {
      adopt(data.acceptInvitation);
      setJoined(true);
    }
  };
  return (
    <LinkPage title="Accept an invitation">
      <form onSubmit={submit}>
        <label>
          Name
          <input name="name" autoComplete="name" required value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          Password
          <input
            type="password"
            name="password"
            autoComplete="new-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <ErrorLine error={error} />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Joining…' : 'Accept invitation'}
        </button>
      </form>
    </LinkPage>
  );
}

/** /reset-password: asks for a link by email; with the link's ?token=..., sets a new password. */
export function ResetPasswordPage() {
  const token = useSearchParams()[0].get('token');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const data = token
      ? await send(RESET_PASSWORD, { token, password: value }, setError)
      : await send(REQUEST_PASSWORD_RESET, { email: value.trim() }, setError);
    setBusy(false);
    setDone(data !== null);
  };
  if (done) {
    return (
      <LinkPage title={token ? 'Password changed' : 'Check your email'}>
        <p role="status">
          {token
            ? 'Your password is changed, and your other sessions are ended.'
            : 'If an account has this email, a link to set a new password is on its way. It works once, for a limited time.'}
        </p>
        <Link to="/sign-in">Sign in</Link>
      </LinkPage>
    );
  }
  return (
    <LinkPage title={token ? 'Choose a new password' : 'Reset your password'}>
      <form onSubmit={submit}>
        <label>
          {token ? 'New password' : 'Email'}
          <input
            type={token ? 'password' : 'email'}
            name={token ? 'new-password' : 'email'}
            autoComplete={token ? 'new-password' : 'username'}
            required
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />
        </label>
        <ErrorLine error={error} />
        <button type="submit" className="primary" disabled={busy}>
          {token ? 'Set password' : 'Send reset link'}
        </button>
      </form>
      <Link to="/sign-in">Back to sign-in</Link>
    </LinkPage>
  );
}
