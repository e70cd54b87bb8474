import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { ErrorLine } from '../../lib/ErrorLine';
import { errorInWords } from '../../lib/errorInWords';
import { StatusMessage } from '../layout/StatusMessage';
import { MY_MAIL_OPT_INS, SET_MAIL_OPT_INS } from './alertQueries';

/** The signed-in member's own choice of mails: alert emails and the weekly digest (every role chooses). */
export function MailOptInsSection() {
  const [{ data, error }, reexecute] = useQuery({ query: MY_MAIL_OPT_INS });
  if (error)
    return (
      <StatusMessage error retry={() => reexecute({ requestPolicy: 'network-only' })}>
        {errorInWords(error)}
      </StatusMessage>
    );
  const member = data?.me?.member;
  if (!member) return <StatusMessage>Loading your email choices…</StatusMessage>;
  return <Choices key={member.id} saved={member} />;
}

/** The two boxes, changed at once on screen and saved behind (put back when the save fails). */
function Choices({ saved }: { saved: { alertEmails: boolean; digestEmails: boolean } }) {
  const [choice, setChoice] = useState({ alertEmails: saved.alertEmails, digestEmails: saved.digestEmails });
  const [{ fetching: saving }, save] = useMutation(SET_MAIL_OPT_INS);
  const [failed, setFailed] = useState<string | null>(null);
  const change = async (changed: Partial<typeof choice>) => {
    setFailed(null);
    const before = choice;
    setChoice({ ...choice, ...changed });
    const result = await save(changed);
    if (result.error) {
      setChoice(before);
      setFailed(errorInWords(result.error));
    }
  };
  return (
    <section aria-labelledby="mail-title">
      <h2 id="mail-title">Your emails</h2>
      <p className="hint">What the service mails you. Each member chooses for themselves.</p>
      <label className="check">
        <input
          type="checkbox"
          disabled={saving}
          checked={choice.alertEmails}
          onChange={(e) => void change({ alertEmails: e.target.checked })}
        />
        Email me when an alert opens or closes
      </label>
      <label className="check">
        <input
          type="checkbox"
          disabled={saving}
          checked={choice.digestEmails}
          onChange={(e) => void change({ digestEmails: e.target.checked })}
        />
        Email me the weekly digest (volume, sentiment, top and rising themes, open alerts)
      </label>
      <ErrorLine error={failed} />
    </section>
  );
}
