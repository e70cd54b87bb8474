import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useMutation } from 'urql';
import { ErrorLine } from '../../lib/ErrorLine';
import { errorInWords } from '../../lib/errorInWords';
import { START_SSO_SIGN_IN } from './ssoQueries';

/** Asks for the work email, then goes to that organization's identity provider. */
export function SsoSignInPage() {
  const [{ fetching }, start] = useMutation(START_SSO_SIGN_IN);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await start({ email: email.trim() });
    if (result.error || !result.data) {
      setError(result.error ? errorInWords(result.error) : 'Single sign-on failed. Please try again.');
      return;
    }
    window.location.assign(result.data.startSsoSignIn.url);
  };

  return (
    <main className="sign-in">
      <h1>Feedback Intelligence</h1>
      <form onSubmit={submit} className="card" aria-labelledby="sso-title">
        <h2 id="sso-title">Sign in with SSO</h2>
        <p className="hint">Your organization&apos;s identity provider signs you in.</p>
        <label>
          Work email
          <input
            type="email"
            name="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <ErrorLine error={error} />
        <button type="submit" className="primary" disabled={fetching}>
          {fetching ? 'Going to your identity provider…' : 'Continue'}
        </button>
        <Link to="/sign-in">Sign in with a password</Link>
      </form>
    </main>
  );
}
