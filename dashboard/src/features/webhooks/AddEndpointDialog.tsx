import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { Dialog } from '../../lib/Dialog';
import { ErrorLine } from '../../lib/ErrorLine';
import { errorInWords } from '../../lib/errorInWords';
import { SecretOnceDialog } from '../../lib/SecretOnce';
import { ADD_WEBHOOK_ENDPOINT, EVENTS } from './webhookQueries';

/** Asks for the address and the events, then shows the signing secret this once. */
export function AddEndpointDialog({ onAdded, onClose }: { onAdded: () => void; onClose: () => void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['feedback.created']);
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [{ fetching }, add] = useMutation(ADD_WEBHOOK_ENDPOINT);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const result = await add({ url: url.trim(), events });
    if (result.error || !result.data) {
      setError(result.error ? errorInWords(result.error) : 'The endpoint was not added. Please try again.');
      return;
    }
    setSecret(result.data.addWebhookEndpoint.secret);
    onAdded();
  };

  if (secret) {
    return (
      <SecretOnceDialog
        title="Your endpoint's signing secret"
        secret={secret}
        label="Signing secret"
        noun="secret"
        onClose={onClose}
      >
        <p className="hint">Your receiver checks each event's signature with it (Standard Webhooks).</p>
      </SecretOnceDialog>
    );
  }
  const toggle = (type: string) =>
    setEvents((before) => (before.includes(type) ? before.filter((t) => t !== type) : [...before, type]));
  return (
    <Dialog title="Add webhook endpoint" onClose={onClose}>
      <form onSubmit={submit}>
        <label>
          Endpoint URL
          <input
            name="url"
            type="url"
            required
            maxLength={2048}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            aria-describedby="endpoint-url-hint"
          />
        </label>
        <p id="endpoint-url-hint" className="hint">
          An https address on the public internet, e.g. https://hooks.example.com/feedback.
        </p>
        <fieldset className="events">
          <legend>Events</legend>
          {EVENTS.map((event) => (
            <label key={event.type} className="check">
              <input type="checkbox" checked={events.includes(event.type)} onChange={() => toggle(event.type)} />
              {event.label} <code>{event.type}</code>
            </label>
          ))}
        </fieldset>
        <ErrorLine error={error} />
        <div className="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={fetching || events.length === 0}>
            Add endpoint
          </button>
        </div>
      </form>
    </Dialog>
  );
}
