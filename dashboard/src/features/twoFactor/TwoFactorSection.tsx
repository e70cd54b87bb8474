import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { ErrorLine } from '../../lib/ErrorLine';
import { errorInWords } from '../../lib/errorInWords';
import { useSignedIn } from '../auth/SessionProvider';
import { StatusMessage } from '../layout/StatusMessage';
import {
  CONFIRM_TWO_FACTOR_SETUP,
  DISABLE_TWO_FACTOR,
  REQUIRE_TWO_FACTOR,
  START_TWO_FACTOR_SETUP,
  TWO_FACTOR_STATUS,
  type TwoFactorSetup,
} from './twoFactorQueries';
import { RecoveryCodes, TwoFactorSetupForm } from './TwoFactorSetupForm';

/** Settings, Two-factor sign-in: every member's own setup; owners also require it of everyone. */
export function TwoFactorSection() {
  const session = useSignedIn();
  const [{ data, error, fetching }, reexecute] = useQuery({ query: TWO_FACTOR_STATUS });
  const reload = () => reexecute({ requestPolicy: 'network-only' });
  const status = data?.twoFactor;

  return (
    <section aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">Two-factor sign-in</h2>
      <p className="hint">
        After your password (or single sign-on), sign-in asks for a code from an authenticator app on your phone.
      </p>
      {error && (
        <StatusMessage error retry={reload}>
          {errorInWords(error)}
        </StatusMessage>
      )}
      {!data && fetching && <StatusMessage>Loading…</StatusMessage>}
      {status && (
        <>
          <p role="status">
            {status.enabled
              ? `Two-factor sign-in is on. ${status.recoveryCodesLeft} recovery codes left.`
              : 'Two-factor sign-in is off.'}
            {status.required && ' Your organization requires it.'}
          </p>
          {status.enabled ? <TurnOff required={status.required} onDone={reload} /> : <SetUp onDone={reload} />}
          {session.member.role === 'owner' && <RequireForEveryone required={status.required} onDone={reload} />}
        </>
      )}
    </section>
  );
}

function SetUp({ onDone }: { onDone: () => void }) {
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [{ fetching }, start] = useMutation(START_TWO_FACTOR_SETUP);
  const [, confirm] = useMutation(CONFIRM_TWO_FACTOR_SETUP);

  if (codes) return <RecoveryCodes codes={codes} doneLabel="Done" onDone={onDone} />;
  if (setup)
    return (
      <TwoFactorSetupForm
        setup={setup}
        confirmLabel="Turn on"
        confirm={async (code) => {
          const result = await confirm({ code });
          if (result.error || !result.data) return result.error ? errorInWords(result.error) : 'Please try again.';
          setCodes(result.data.confirmTwoFactorSetup.recoveryCodes);
          return null;
        }}
      />
    );
  return (
    <>
      <ErrorLine error={error} />
      <button
        type="button"
        className="primary"
        disabled={fetching}
        onClick={async () => {
          setError(null);
          const result = await start({});
          if (result.error || !result.data) setError(result.error ? errorInWords(result.error) : 'Please try again.');
          else setSetup(result.data.startTwoFactorSetup);
        }}
      >
        Set up two-factor sign-in
      </button>
    </>
  );
}

function TurnOff({ required, onDone }: { required: boolean; onDone: () => void }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [{ fetching }, disable] = useMutation(DISABLE_TWO_FACTOR);
  if (required) return null;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const result = await disable({ code: code.trim() });
    if (result.error) setError(errorInWords(result.error));
    else onDone();
  };
  return (
    <form onSubmit={submit}>
      <label>
        Code to turn it off
        <input
          name="code"
          autoComplete="one-time-code"
          required
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </label>
      <ErrorLine error={error} />
      <button type="submit" className="danger" disabled={fetching}>
        Turn off two-factor sign-in
      </button>
    </form>
  );
}

function RequireForEveryone({ required, onDone }: { required: boolean; onDone: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [{ fetching }, setRequired] = useMutation(REQUIRE_TWO_FACTOR);
  return (
    <>
      <label className="check">
        <input
          type="checkbox"
          checked={required}
          disabled={fetching}
          onChange={async (e) => {
            setError(null);
            const result = await setRequired({ required: e.target.checked });
            if (result.error) setError(errorInWords(result.error));
            else onDone();
          }}
        />
        Require two-factor sign-in for everyone in the organization (members without it set it up at their next sign-in)
      </label>
      <ErrorLine error={error} />
    </>
  );
}
