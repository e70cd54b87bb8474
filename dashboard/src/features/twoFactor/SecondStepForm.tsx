import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { ErrorLine } from '../../lib/ErrorLine';
import { errorInWords } from '../../lib/errorInWords';
import type { Session } from '../auth/sessionQueries';
import { StatusMessage } from '../layout/StatusMessage';
import {
  FINISH_TWO_FACTOR_ENROLLMENT,
  START_TWO_FACTOR_ENROLLMENT,
  VERIFY_TWO_FACTOR,
  type SecondStep,
  type TwoFactorSetup,
} from './twoFactorQueries';
import { RecoveryCodes, TwoFactorSetupForm } from './TwoFactorSetupForm';

/**
 * The second step of a sign-in (after the password or single sign-on): the code from the app or a recovery
 * code; or, when the organization requires two-factor and the member has none, its setup. The session opens
 * only then (`onSignedIn`).
 */
export function SecondStepForm({ step, onSignedIn }: { step: SecondStep; onSignedIn: (session: Session) => void }) {
  return step.reason === 'TWO_FACTOR_REQUIRED' ? (
    <CodeStep challenge={step.challenge} onSignedIn={onSignedIn} />
  ) : (
    <EnrollmentStep challenge={step.challenge} onSignedIn={onSignedIn} />
  );
}

function CodeStep({ challenge, onSignedIn }: { challenge: string; onSignedIn: (session: Session) => void }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [{ fetching }, verify] = useMutation(VERIFY_TWO_FACTOR);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const result = await verify({ challenge, code: code.trim() });
    if (result.error || !result.data) {
      setError(result.error ? errorInWords(result.error) : 'The code was not checked. Please try again.');
      return;
    }
    onSignedIn(result.data.verifyTwoFactor);
  };
  return (
    <form onSubmit={submit} aria-labelledby="second-step-title">
      <h2 id="second-step-title">Two-factor sign-in</h2>
      <p>Enter the six-digit code from your authenticator app, or one of your recovery codes.</p>
      <label>
        Code
        <input
          name="code"
          autoComplete="one-time-code"
          required
          autoFocus
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </label>
      <ErrorLine error={error} />
      <button type="submit" className="primary" disabled={fetching}>
        {fetching ? 'Checking…' : 'Verify'}
      </button>
    </form>
  );
}

function EnrollmentStep({ challenge, onSignedIn }: { challenge: string; onSignedIn: (session: Session) => void }) {
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [finished, setFinished] = useState<{ session: Session; recoveryCodes: string[] } | null>(null);
  const [, start] = useMutation(START_TWO_FACTOR_ENROLLMENT);
  const [, finish] = useMutation(FINISH_TWO_FACTOR_ENROLLMENT);
  const asked = useRef(false);

  useEffect(() => {
    // Once: a second setup would replace the secret of the QR code already shown.
    if (asked.current) return;
    asked.current = true;
    void start({ challenge }).then((result) => {
      if (result.error || !result.data) setError(result.error ? errorInWords(result.error) : 'Please sign in again.');
      else setSetup(result.data.startTwoFactorEnrollment);
    });
  }, [challenge, start]);

  return (
    <section aria-labelledby="second-step-title">
      <h2 id="second-step-title">Set up two-factor sign-in</h2>
      <p>Your organization requires two-factor sign-in. Set it up now to continue.</p>
      {error && <StatusMessage error>{error}</StatusMessage>}
      {!setup && !error && <StatusMessage>Preparing your setup…</StatusMessage>}
      {setup && !finished && (
        <TwoFactorSetupForm
          setup={setup}
          confirmLabel="Turn on and sign in"
          confirm={async (code) => {
            const result = await finish({ challenge, code });
            if (result.error || !result.data) return result.error ? errorInWords(result.error) : 'Please try again.';
            setFinished(result.data.finishTwoFactorEnrollment);
            return null;
          }}
        />
      )}
      {finished && (
        <RecoveryCodes
          codes={finished.recoveryCodes}
          doneLabel="Continue"
          onDone={() => onSignedIn(finished.session)}
        />
      )}
    </section>
  );
}
