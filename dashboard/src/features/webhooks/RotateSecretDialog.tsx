import { useRef, useState } from 'react';
import { useMutation } from 'urql';
import { ConfirmDialog } from '../../lib/ConfirmDialog';
import { formatTime } from '../../lib/formatTime';
import { SecretOnceDialog } from '../../lib/SecretOnce';
import { ROTATE_WEBHOOK_SECRET, type WebhookEndpoint } from './webhookQueries';

/** Asks before replacing the signing secret, then shows the new one this once, with how long the old one still signs. */
export function RotateSecretDialog({
  endpoint,
  onRotated,
  onClose,
}: {
  endpoint: WebhookEndpoint;
  onRotated: () => void;
  onClose: () => void;
}) {
  const [{ fetching }, rotate] = useMutation(ROTATE_WEBHOOK_SECRET);
  const [rotated, setRotated] = useState<WebhookEndpoint | null>(null);
  // The confirmation closes itself once it succeeds; this dialog then stays open to show the secret.
  const showing = useRef(false);
  if (rotated?.secret) {
    return (
      <SecretOnceDialog
        title="Your endpoint's new signing secret"
        secret={rotated.secret}
        label="New signing secret"
        noun="secret"
        onClose={onClose}
      >
        <p className="hint">
          Until {formatTime(rotated.previousSecretExpiresAt, 'the overlap ends')} each event is signed with both the old
          and the new secret, so your receiver can switch to the new one without missing an event.
        </p>
      </SecretOnceDialog>
    );
  }
  const run = async () => {
    const result = await rotate({ id: endpoint.id });
    if (result.data) {
      showing.current = true;
      setRotated(result.data.rotateWebhookSecret);
    }
    return result;
  };
  return (
    <ConfirmDialog
      title={`Rotate the secret of ${endpoint.url}?`}
      confirmLabel="Rotate secret"
      busy={fetching}
      run={run}
      onDone={onRotated}
      onClose={() => {
        if (!showing.current) onClose();
      }}
    >
      <p>
        A new signing secret replaces the current one. For a while events carry both signatures; after that only the new
        secret verifies them.
      </p>
    </ConfirmDialog>
  );
}
