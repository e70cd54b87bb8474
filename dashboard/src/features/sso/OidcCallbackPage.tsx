import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useMutation } from 'urql';
import { errorInWords } from '../../lib/errorInWords';
import { useSession } from '../auth/SessionProvider';
import { StatusMessage } from '../layout/StatusMessage';
import { FINISH_OIDC_SIGN_IN } from './ssoQueries';

/**
 * Where the identity provider sends the browser back: hands its answer (the query string) to the identity
 * service, which checks it and opens the session, then shows the application. An answer is good once,
 * so it is sent once, however often the page renders.
 */
export function OidcCallbackPage() {
  const { state, adopt } = useSession();
  const navigate = useNavigate();
  const [, finish] = useMutation(FINISH_OIDC_SIGN_IN);
  const [error, setError] = useState<string | null>(null);
  const sent = useRef(false);

  useEffect(() => {
    // After the session is known: a browser still signed in must send that session's CSRF token.
    if (sent.current || state.status === 'loading') return;
    sent.current = true;
    void finish({ callbackQuery: window.location.search }).then((result) => {
      if (result.error || !result.data) {
        setError(result.error ? errorInWords(result.error) : 'Single sign-on failed. Please try again.');
        return;
      }
      adopt(result.data.finishOidcSignIn);
      navigate('/', { replace: true });
    });
  }, [state.status, finish, adopt, navigate]);

  return (
    <main className="sign-in">
      <h1>Feedback Intelligence</h1>
      <section className="card" aria-labelledby="callback-title">
        <h2 id="callback-title">Signing you in</h2>
        {error ? (
          <>
            <StatusMessage error>{error}</StatusMessage>
            <Link to="/sign-in/sso">Try single sign-on again</Link>
          </>
        ) : (
          <StatusMessage>Checking the answer of your identity provider…</StatusMessage>
        )}
      </section>
    </main>
  );
}
