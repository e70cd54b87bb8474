import { formatTime } from '../../lib/formatTime';
import { capitalized, type FeedbackDetail } from './feedbackQueries';
import { SentimentFact } from './SentimentFact';

/** What is known of an item at a glance: status, sentiment, where and whom it came from, when. */
export function ItemFacts({ item, canChange }: { item: FeedbackDetail; canChange: boolean }) {
  return (
    <dl className="facts">
      <div>
        <dt>Status</dt>
        <dd>
          <span className={`badge ${item.status}`}>{capitalized(item.status)}</span>
        </dd>
      </div>
      <div>
        <dt>Sentiment</dt>
        <SentimentFact item={item} canChange={canChange} />
      </div>
      <div>
        <dt>Source</dt>
        <dd>{item.source}</dd>
      </div>
      <div>
        <dt>From</dt>
        <dd>{[item.author, item.email].filter(Boolean).join(' · ') || 'Not given'}</dd>
      </div>
      <div>
        <dt>Published</dt>
        <dd>{formatTime(item.publishedDate)}</dd>
      </div>
      {item.language && (
        <div>
          <dt>Language</dt>
          <dd>{item.language}</dd>
        </div>
      )}
    </dl>
  );
}
