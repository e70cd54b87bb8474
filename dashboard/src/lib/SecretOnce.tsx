import { useRef, useState } from 'react';

/** A secret shown this once (an API key, a webhook signing secret), in a read-only field with a copy button. */
export function SecretOnce({ secret, label, noun }: { secret: string; label: string; noun: string }) {
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('Copied to the clipboard.');
    } catch {
      // Without clipboard permission (or over plain HTTP) the secret is selected for the person to copy.
      field.current?.select();
      setCopied(`Select and copy the ${noun} yourself: this browser did not allow copying.`);
    }
  };
  return (
    <>
      <p>Copy the {noun} now and keep it somewhere safe: it is shown only this once.</p>
      <label>
        {label}
        <input ref={field} readOnly value={secret} className="secret" onFocus={(e) => e.target.select()} />
      </label>
      <button type="button" onClick={copy}>
        Copy
      </button>
      <p role="status" className="hint">
        {copied}
      </p>
    </>
  );
}
