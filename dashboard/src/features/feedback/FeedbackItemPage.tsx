import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { ErrorLine } from '../../lib/ErrorLine';
import { errorInWords } from '../../lib/errorInWords';
import { formatTime } from '../../lib/formatTime';
import { canChangeDirectory } from '../auth/roles';
import { useSignedIn } from '../auth/SessionProvider';
import { StatusMessage } from '../layout/StatusMessage';
import { ConfirmDialog } from '../../lib/ConfirmDialog';
import { ItemFacts } from './ItemFacts';
import { ItemPeople } from './ItemPeople';
import {
  capitalized,
  CHANGE_STATUS,
  FEEDBACK_ITEM,
  MERGE,
  STATUS_ACTIONS,
  UNMERGE,
  type FeedbackDetail,
  type FeedbackRow,
} from './feedbackQueries';

/** One feedback item: its text and figures, status buttons, its contact and account, its themes and the items like it. */
export function FeedbackItemPage() {
  const { id = '' } = useParams();
  const [{ data, error, fetching }, reexecute] = useQuery({ query: FEEDBACK_ITEM, variables: { id } });
  const reload = () => reexecute({ requestPolicy: 'network-only' });
  const item = data?.feedbackItem;
  return (
    <section aria-labelledby="item-title">
      <p>
        <Link to="/feedback">Back to the inbox</Link>
      </p>
      {error && (
        <StatusMessage error retry={error.graphQLErrors[0]?.extensions?.code === 'NOT_FOUND' ? undefined : reload}>
          {error.graphQLErrors[0]?.extensions?.code === 'NOT_FOUND'
            ? 'There is no such feedback item in your organization.'
            : errorInWords(error)}
        </StatusMessage>
      )}
      {!data && fetching && <StatusMessage>Loading the feedback item…</StatusMessage>}
      {item && <ItemDetail item={item} onChanged={reload} />}
    </section>
  );
}

function ItemDetail({ item, onChanged }: { item: FeedbackDetail; onChanged: () => void }) {
  const canChange = canChangeDirectory(useSignedIn().member.role);
  const [{ fetching: changing }, changeStatus] = useMutation(CHANGE_STATUS);
  const [{ fetching: merging }, merge] = useMutation(MERGE);
  const [{ fetching: unmerging }, unmerge] = useMutation(UNMERGE);
  const [merged, setMerged] = useState<FeedbackRow | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const putBack = async (id: string) => {
    const result = await unmerge({ id });
    setFailure(result.error ? errorInWords(result.error) : null);
    if (!result.error) onChanged();
  };
  const setStatus = async (status: string) => {
    const result = await changeStatus({ id: item.id, status });
    setFailure(result.error ? errorInWords(result.error) : null);
    if (!result.error) onChanged();
  };
  return (
    <>
      <h1 id="item-title">{item.title}</h1>
      {item.duplicateOf && (
        <p className="notice">
          Merged into <Link to={`/feedback/${item.duplicateOf.id}`}>{item.duplicateOf.title}</Link>: it is not in the
          inbox, lists or figures.{' '}
          {canChange && (
            <button type="button" disabled={unmerging} onClick={() => void putBack(item.id)}>
              Unmerge
            </button>
          )}
        </p>
      )}
      <ItemFacts item={item} canChange={canChange && !item.duplicateOf} />
      {canChange && !item.duplicateOf && (
        <div className="buttons" role="group" aria-label="Change the status">
          {Object.entries(STATUS_ACTIONS)
            .filter(([status]) => status !== item.status)
            .map(([status, action]) => (
              <button key={status} type="button" disabled={changing} onClick={() => void setStatus(status)}>
                {action.label}
              </button>
            ))}
        </div>
      )}
      <ErrorLine error={failure} />
      <blockquote className="feedback-text">{item.content}</blockquote>
      {item.themes.length > 0 && (
        <>
          <h2>Themes</h2>
          <ul className="chips">
            {item.themes.map((theme) => (
              <li key={theme.id}>
                <Link to={`/feedback?theme=${encodeURIComponent(theme.id)}`}>{theme.label}</Link>
              </li>
            ))}
          </ul>
        </>
      )}
      <h2>Contact and account</h2>
      {item.email ? (
        <ItemPeople email={item.email} />
      ) : (
        <p className="hint">The item has no email, so no contact or account is linked.</p>
      )}
      <h2>Similar feedback</h2>
      {item.similar.length === 0 ? (
        <p className="hint">No other item is much like this one.</p>
      ) : (
        <ul className="similar">
          {item.similar.map(({ score, item: similar }) => (
            <li key={similar.id}>
              <Link to={`/feedback/${similar.id}`}>{similar.title}</Link>{' '}
              <span className="hint">
                {Math.round(score * 100)}% alike · {capitalized(similar.status)} · {formatTime(similar.publishedDate)}
              </span>{' '}
              {canChange && !item.duplicateOf && (
                <button
                  type="button"
                  aria-label={`Merge “${similar.title}” into this item`}
                  onClick={() => setMerged(similar)}
                >
                  Merge into this item
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {item.duplicates.length > 0 && (
        <>
          <h2>Merged into this item</h2>
          <ul className="similar">
            {item.duplicates.map((duplicate) => (
              <li key={duplicate.id}>
                <Link to={`/feedback/${duplicate.id}`}>{duplicate.title}</Link>{' '}
                <span className="hint">
                  {[duplicate.author, duplicate.email].filter(Boolean).join(' · ') ||
                    formatTime(duplicate.publishedDate)}
                </span>{' '}
                {canChange && (
                  <button
                    type="button"
                    aria-label={`Unmerge “${duplicate.title}”`}
                    disabled={unmerging}
                    onClick={() => void putBack(duplicate.id)}
                  >
                    Unmerge
                  </button>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      {merged && (
        <ConfirmDialog
          title="Merge feedback"
          confirmLabel="Merge"
          busy={merging}
          run={() => merge({ id: item.id, duplicateIds: [merged.id] })}
          onDone={onChanged}
          onClose={() => setMerged(null)}
        >
          <p>
            “{merged.title}” leaves the inbox, the lists and the figures, and is kept whole with this item. Unmerge puts
            it back as it was.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
