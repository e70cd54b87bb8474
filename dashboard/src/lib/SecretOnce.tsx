import { useRef, useState, type ReactNode } from 'react';
import { Dialog } from './Dialog';

interface SecretOnceProps {
  title: string;
  secret: string;
  /** The read-only field's label. */
  label: string;
  /** What the secret is called in sentences ("key", "secret"). */
  noun: string;
  onClose: () => void;
  /** What to know about it, below the field. */
  children?: ReactNode;
}

/** A secret shown this once (an API key, a webhook signing secret) in a dialog: a read-only field with a copy button, and Done. */
export function SecretOnceDialog({ title, secret, label, noun, onClose, children }: SecretOnceProps) {
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
    <Dialog title={title} onClose={onClose}>
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
      {children}
      <div className="actions">
        <button type="button" className="primary" onClick={onClose}>
          Done
        </button>
      </div>
    </Dialog>
  );
}
