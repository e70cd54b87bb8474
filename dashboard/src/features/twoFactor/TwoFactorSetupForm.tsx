import { useState, type FormEvent } from 'react';
import { ErrorLine } from '../../lib/ErrorLine';
import type { TwoFactorSetup } from './twoFactorQueries';

/**
 * The QR code (and the secret, for an app that cannot scan), then the first code the app shows, which turns
 * two-factor sign-in on. Shared by Settings and by a sign-in the organization requires it for.
 */
export function TwoFactorSetupForm({
  setup,
  confirmLabel,
  confirm,
}: {
  setup: TwoFactorSetup;
  confirmLabel: string;
  /** Resolves to an error in words, or null once on. */
  confirm: (code: string) => Promise<string | null>;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(await confirm(code.trim()));
    setBusy(false);
  };
  return (
    <form onSubmit={submit}>
      <p>
        Scan this QR code with your authenticator app (1Password, Google Authenticator, Authy…), then enter the
        six-digit code it shows.
      </p>
      <img src={setup.qrCode} alt="QR code for your authenticator app" width={200} height={200} />
      <p className="hint">
        Cannot scan? Enter this key in the app: <code>{setup.secret}</code>
      </p>
      <label>
        Code from the app
        <input
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9 ]{6,7}"
          required
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </label>
      <ErrorLine error={error} />
      <button type="submit" className="primary" disabled={busy}>
        {confirmLabel}
      </button>
    </form>
  );
}

/** Recovery codes, shown this once: each signs in once when the phone is lost. */
export function RecoveryCodes({
  codes,
  onDone,
  doneLabel,
}: {
  codes: string[];
  onDone: () => void;
  doneLabel: string;
}) {
  return (
    <section aria-labelledby="recovery-title">
      <h3 id="recovery-title">Your recovery codes</h3>
      <p>
        Keep these codes somewhere safe: each one signs you in once if you lose your phone. They are shown only this
        once.
      </p>
      <ul aria-label="Recovery codes" className="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <button type="button" className="primary" onClick={onDone}>
        {doneLabel}
      </button>
    </section>
  );
}
