import { useState, type FormEvent } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { ErrorLine } from '../../lib/ErrorLine';
import { StatusMessage } from '../layout/StatusMessage';
import { SecondStepForm } from '../twoFactor/SecondStepForm';
import type { SecondStep } from '../twoFactor/twoFactorQueries';
import { useSession } from './SessionProvider';

/**
 * Only paths of this application: a crafted link must not send a person elsewhere after sign-in. The
 * address is resolved as the browser would resolve it (`/\evil`, `/\t/evil` and `//evil` all lead to
 * another host), and kept only when it stays on this origin.
 */
function safeNext(next: string | null): string {
  if (!next?.startsWith('/')) return '/';
  const { origin } = window.location;
  try {
    const url = new URL(next, origin);
    return url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : '/';
  } catch {
    return '/';
  }
}

export function SignInPage() {
  const { state, signIn, adopt } = useSession();
  const [secondStep, setSecondStep] = useState<SecondStep | null>(null);
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (state.status === 'ready' && state.session) return <Navigate to={safeNext(params.get('next'))} replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const answer = await signIn(email.trim(), password);
    if (typeof answer === 'string' || answer === null) setError(answer);
    else setSecondStep(answer);
    setBusy(false);
  };

  if (secondStep)
    return (
      <main className="sign-in">
        <h1>Feedback Intelligence</h1>
        <div className="card">
          <SecondStepForm step={secondStep} onSignedIn={adopt} />
        </div>
      </main>
    );

  return (
    <main className="sign-in">
      <h1>Feedback Intelligence</h1>
      <form onSubmit={submit} className="card" aria-labelledby="sign-in-title">
        <h2 id="sign-in-title">Sign in</h2>
        {state.status === 'error' && <StatusMessage error>{state.message}</StatusMessage>}
        <label>
          Email
          <input
            type="email"
            name="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <label>
          Password
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <ErrorLine error={error} />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <Link to="/reset-password">Forgot your password?</Link>
        <Link to="/sign-in/sso">Sign in with SSO</Link>
      </form>
    </main>
  );
}
