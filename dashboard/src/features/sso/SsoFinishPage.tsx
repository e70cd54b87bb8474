import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useClient } from 'urql';
import { errorInWords } from '../../lib/errorInWords';
import { useSession } from '../auth/SessionProvider';
import type { Session } from '../auth/sessionQueries';
import { StatusMessage } from '../layout/StatusMessage';
import { SecondStepForm } from '../twoFactor/SecondStepForm';
import { secondStepOf, type SecondStep } from '../twoFactor/twoFactorQueries';
import { FINISH_OIDC_SIGN_IN, FINISH_SAML_SIGN_IN } from './ssoQueries';

/** Hands the provider's answer to the identity service: the OIDC callback's query, or SAML's ticket. */
async function finishSignIn(
  client: ReturnType<typeof useClient>,
  protocol: 'oidc' | 'saml',
): Promise<{ session: Session | null; secondStep: SecondStep | null; error: string | null }> {
  const result =
    protocol === 'oidc'
      ? await client.mutation(FINISH_OIDC_SIGN_IN, { callbackQuery: window.location.search }).toPromise()
      : await client
          .mutation(FINISH_SAML_SIGN_IN, { ticket: new URLSearchParams(window.location.search).get('ticket') ?? '' })
          .toPromise();
  const data = result.data as { finishOidcSignIn?: Session; finishSamlSignIn?: Session } | undefined;
  const session = data?.finishOidcSignIn ?? data?.finishSamlSignIn ?? null;
  // The organization requires a second factor: the provider's answer was good, the code (or its setup) is next.
  const secondStep = secondStepOf(result.error);
  if (secondStep) return { session: null, secondStep, error: null };
  if (result.error || !session)
    return {
      session: null,
      secondStep: null,
      error: result.error ? errorInWords(result.error) : 'Single sign-on failed. Please try again.',
    };
  return { session, secondStep: null, error: null };
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
  const [secondStep, setSecondStep] = useState<SecondStep | null>(null);
  const sent = useRef(false);
  const signedIn = useCallback(
    (session: Session) => {
      adopt(session);
      navigate('/', { replace: true });
    },
    [adopt, navigate],
  );

  useEffect(() => {
    // After the session is known: a browser still signed in must send that session's CSRF token.
    if (sent.current || state.status === 'loading') return;
    sent.current = true;
    void finishSignIn(client, protocol).then((answer) => {
      if (answer.session) signedIn(answer.session);
      else if (answer.secondStep) setSecondStep(answer.secondStep);
      else setError(answer.error);
    });
  }, [state.status, client, protocol, signedIn]);

  if (secondStep)
    return (
      <main className="sign-in">
        <h1>Feedback Intelligence</h1>
        <div className="card">
          <SecondStepForm step={secondStep} onSignedIn={signedIn} />
        </div>
      </main>
    );

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
