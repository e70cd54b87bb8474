import { useState } from 'react';
import { useMutation } from 'urql';
import { ErrorLine } from '../../lib/ErrorLine';
import { errorInWords } from '../../lib/errorInWords';
import { capitalized, CHANGE_SENTIMENT, SENTIMENTS, type FeedbackDetail } from './feedbackQueries';

/** Who gave the sentiment, in words: a person's stands over anything the service computes later. */
const GIVEN_BY: Record<string, string> = {
  provided: 'as sent',
  computed: 'read by the service',
  model: "read by the organization's model",
  person: 'given by a person',
};

/**
 * An item's sentiment, and for those who may change items a choice to correct it: the person's
 * sentiment is kept through every later computation and counted at once.
 */
export function SentimentFact({ item, canChange }: { item: FeedbackDetail; canChange: boolean }) {
  const [{ fetching }, change] = useMutation(CHANGE_SENTIMENT);
  const [failure, setFailure] = useState<string | null>(null);
  const givenBy = GIVEN_BY[item.sentimentSource];
  const shown = item.sentiment ? capitalized(item.sentiment) : 'Not known';
  if (!canChange) return <dd>{givenBy && item.sentiment ? `${shown} (${givenBy})` : shown}</dd>;
  const onChange = async (sentiment: string) => {
    const result = await change({ id: item.id, sentiment });
    setFailure(result.error ? errorInWords(result.error) : null);
  };
  return (
    <dd>
      <select
        aria-label="Sentiment"
        value={item.sentiment ?? ''}
        disabled={fetching}
        onChange={(event) => void onChange(event.currentTarget.value)}
      >
        {!item.sentiment && <option value="">Not known</option>}
        {SENTIMENTS.map((sentiment) => (
          <option key={sentiment} value={sentiment}>
            {capitalized(sentiment)}
          </option>
        ))}
      </select>{' '}
      {givenBy && item.sentiment && <span className="hint">{givenBy}</span>}
      <ErrorLine error={failure} />
    </dd>
  );
}
