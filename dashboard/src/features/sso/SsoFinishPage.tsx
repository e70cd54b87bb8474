import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useClient } from 'urql';
import { errorInWords } from '../../lib/errorInWords';
import { useSession } from '../auth/SessionProvider';
import type { Session } from '../auth/sessionQueries';
import { StatusMessage } from '../layout/StatusMessage';
import { FINISH_OIDC_SIGN_IN, FINISH_SAML_SIGN_IN } from './ssoQueries';

/** Hands the provider's answer to the identity service: the OIDC callback's query, or SAML's ticket. */
async function finishSignIn(
  client: ReturnType<typeof useClient>,
  protocol: 'oidc' | 'saml',
): Promise<{ session: Session | null; error: string | null }> {
  const result =
    protocol === 'oidc'
      ? await client.mutation(FINISH_OIDC_SIGN_IN, { callbackQuery: window.location.search }).toPromise()
      : await client
          .mutation(FINISH_SAML_SIGN_IN, { ticket: new URLSearchParams(window.location.search).get('ticket') ?? '' })
          .toPromise();
  const data = result.data as { finishOidcSignIn?: Session; finishSamlSignIn?: Session } | undefined;
  const session = data?.finishOidcSignIn ?? data?.finishSamlSignIn ?? null;
  if (result.error || !session)
    return {
      session: null,
      error: result.error ? errorInWords(result.error) : 'Single sign-on failed. Please try again.',
    };
  return { session, error: null };
}

/**
 * Where the identity provider sends the browser back (/auth/oidc/callback; for SAML the assertion consumer
 * sends it on to /auth/saml/complete): the identity service checks the answer and opens the session, then
 * the application shows. An answer is good once, so it is sent once, however often the page renders.
 */
export function SsoFinishPage({ protocol }: { protocol: 'oidc' | 'saml' }) {
  const { state, adopt } = useSession();
  const client = useClient();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const sent = useRef(false);

  useEffect(() => {
    // After the session is known: a browser still signed in must send that session's CSRF token.
    if (sent.current || state.status === 'loading') return;
    sent.current = true;
    void finishSignIn(client, protocol).then(({ session, error: refused }) => {
      if (!session) {
        setError(refused);
        return;
      }
      adopt(session);
      navigate('/', { replace: true });
    });
  }, [state.status, client, protocol, adopt, navigate]);

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
