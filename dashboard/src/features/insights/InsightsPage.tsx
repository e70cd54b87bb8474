import { useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { errorInWords } from '../../lib/errorInWords';
import { formatTime } from '../../lib/formatTime';
import { StatusMessage } from '../layout/StatusMessage';
import { BarList, SentimentLegend, ShareBar, StackedBars } from './charts';
import {
  INSIGHT_DETAILS,
  INSIGHTS,
  rangeBounds,
  RANGES,
  type InsightDetails,
  type InsightPoint,
  type Insights,
} from './insightsQueries';
import { withParams } from '../../lib/searchParams';
import { canChangeDirectory } from '../auth/roles';
import { useSignedIn } from '../auth/SessionProvider';
import { ThemeMerge } from './ThemeMerge';

const dayLabel = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
const monthLabel = new Intl.DateTimeFormat(undefined, { month: 'short', year: 'numeric', timeZone: 'UTC' });
const number = new Intl.NumberFormat();

const pointLabel = (point: InsightPoint, interval: string) =>
  (interval === 'month' ? monthLabel : dayLabel).format(new Date(point.start));

/**
 * Insights for a chosen range (in the address, `?range=30d`, bookmarkable): volume over time stacked by
 * sentiment, sentiment share, sources, the terms of negative feedback and the themes with their trend.
 * Part of the main bundle (about 4 KB gzipped): as a chunk of its own it was revealed only after React's
 * Suspense fallback had shown for its minimum time, which held its first request back by about 280 ms.
 */
export default function InsightsPage() {
  const [params, setParams] = useSearchParams();
  const range = RANGES.find((candidate) => candidate.id === params.get('range')) ?? RANGES[1];
  const source = params.get('source')?.trim() || null;
  const variables = { ...rangeBounds(range), interval: range.interval, source };
  const [{ data, error, fetching }, reexecute] = useQuery({ query: INSIGHTS, variables });
  // Asked once the figures are in: on a busy database the dearer details would slow the charts' read.
  const [details, reexecuteDetails] = useQuery({ query: INSIGHT_DETAILS, variables, pause: !data });
  const choose = (changes: Record<string, string | null>) => setParams(withParams(params, changes));
  return (
    <section aria-labelledby="insights-title">
      <div className="section-head">
        <h1 id="insights-title">Insights</h1>
        <form
          className="filters compact"
          onSubmit={(event) => event.preventDefault()}
          aria-label="What the figures cover"
        >
          <div className="filter">
            <label htmlFor="insights-range">Range</label>
            <select id="insights-range" value={range.id} onChange={(event) => choose({ range: event.target.value })}>
              {RANGES.map((candidate) => (
                <option key={candidate.id} value={candidate.id}>
                  {candidate.label}
                </option>
              ))}
            </select>
          </div>
          <div className="filter">
            <label htmlFor="insights-source">Source</label>
            <select
              id="insights-source"
              value={source ?? ''}
              onChange={(event) => choose({ source: event.target.value || null })}
            >
              <option value="">Every source</option>
              {source && <option value={source}>{source}</option>}
              {(data?.feedbackInsights.bySource ?? [])
                .filter((candidate) => candidate.source !== source)
                .map((candidate) => (
                  <option key={candidate.source} value={candidate.source}>
                    {candidate.source}
                  </option>
                ))}
            </select>
          </div>
        </form>
      </div>
      {error && (
        <StatusMessage
          error
          retry={() => {
            reexecute({ requestPolicy: 'network-only' });
            reexecuteDetails({ requestPolicy: 'network-only' });
          }}
        >
          {errorInWords(error)}
        </StatusMessage>
      )}
      {!data && fetching && <StatusMessage>Loading insights…</StatusMessage>}
      {data && data.feedbackInsights.total === 0 && (
        <StatusMessage>No feedback was published in this range{source ? ` from ${source}` : ''}.</StatusMessage>
      )}
      {data && data.feedbackInsights.total > 0 && (
        <Figures insights={data.feedbackInsights} details={details} label={range.label.toLowerCase()} />
      )}
    </section>
  );
}

interface DetailsState {
  data?: InsightDetails;
  error?: Parameters<typeof errorInWords>[0];
}

/** A card's body while the details are on their way or failed; null once they are here. */
function detailsPending(details: DetailsState, what: string) {
  if (details.error) return <p className="hint">{`The ${what} could not be loaded: ${errorInWords(details.error)}`}</p>;
  if (!details.data) return <p className="hint">{`Loading the ${what}…`}</p>;
  return null;
}

function Figures({ insights, details, label }: { insights: Insights; details: DetailsState; label: string }) {
  const topTerms = details.data?.feedbackInsights.topTerms ?? [];
  const themes = details.data?.feedbackThemes ?? { computedAt: null, items: [] };
  const canChange = canChangeDirectory(useSignedIn().member.role);
  const change = insights.total - insights.previous.total;
  const { positive, neutral, negative, none } = insights.bySentiment;
  return (
    <>
      <p className="headline">
        <strong>{number.format(insights.total)}</strong> items in the {label},{' '}
        {change === 0 ? 'as many as' : `${number.format(Math.abs(change))} ${change > 0 ? 'more' : 'fewer'} than`} in
        the period before ({number.format(insights.previous.total)}).
      </p>
      <div className="chart-grid">
        <article className="card chart-card wide">
          <h2>Volume over time, by sentiment</h2>
          <SentimentLegend />
          <StackedBars
            title={`Feedback volume per ${insights.interval}, by sentiment`}
            points={insights.series.map((point) => ({
              label: pointLabel(point, insights.interval),
              parts: [
                { name: 'negative', value: point.negative },
                { name: 'neutral', value: point.count - point.negative - point.positive },
                { name: 'positive', value: point.positive },
              ],
            }))}
          />
          <details>
            <summary>The numbers</summary>
            <div className="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">
                      {insights.interval === 'day' ? 'Day' : insights.interval === 'week' ? 'Week of' : 'Month'}
                    </th>
                    <th scope="col">Items</th>
                    <th scope="col">Negative</th>
                    <th scope="col">Positive</th>
                  </tr>
                </thead>
                <tbody>
                  {insights.series.map((point) => (
                    <tr key={point.start}>
                      <th scope="row">{pointLabel(point, insights.interval)}</th>
                      <td data-label="Items">{point.count}</td>
                      <td data-label="Negative">{point.negative}</td>
                      <td data-label="Positive">{point.positive}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </article>
        <article className="card chart-card wide">
          <h2>Sentiment share</h2>
          <ShareBar
            title="Share of feedback by sentiment"
            parts={[
              { name: 'negative', label: 'Negative', value: negative },
              { name: 'neutral', label: 'Neutral or not known', value: neutral + none },
              { name: 'positive', label: 'Positive', value: positive },
            ]}
          />
          <p className="hint">
            Negative {number.format(negative)} · Neutral {number.format(neutral)} · Not known {number.format(none)} ·
            Positive {number.format(positive)}
          </p>
        </article>
        <article className="card chart-card">
          <h2>Sources</h2>
          <BarList
            title="Feedback by source"
            rows={insights.bySource.slice(0, 10).map((row) => ({ label: row.source, value: row.count }))}
          />
        </article>
        <article className="card chart-card">
          <h2>Top terms of negative feedback</h2>
          {detailsPending(details, 'terms') ??
            (topTerms.length === 0 ? (
              <p className="hint">No negative feedback in this range.</p>
            ) : (
              <BarList
                title="Most frequent terms in negative feedback"
                rows={topTerms.map((row) => ({ label: row.term, value: row.count }))}
              />
            ))}
        </article>
        <article className="card chart-card wide">
          <h2>Themes and their trend</h2>
          {detailsPending(details, 'themes') ??
            (themes.items.length === 0 ? (
              <p className="hint">
                {themes.computedAt
                  ? 'No theme has items in this range.'
                  : 'Themes are found in the background; they appear within a few minutes of new feedback.'}
              </p>
            ) : (
              <>
                <p className="hint">Dark bars: this range; light bars: the period of equal length before it.</p>
                <BarList
                  title="Largest themes in the range, against the period before"
                  rows={themes.items.map((theme) => {
                    const delta = theme.count - theme.previousCount;
                    return {
                      label: theme.label,
                      value: theme.count,
                      previous: theme.previousCount,
                      note: delta === 0 ? '(same)' : `(${delta > 0 ? '+' : '−'}${Math.abs(delta)})`,
                    };
                  })}
                />
                {themes.computedAt && <p className="hint">Themes computed {formatTime(themes.computedAt)}.</p>}
                {canChange && themes.items.length > 1 && <ThemeMerge themes={themes.items} />}
              </>
            ))}
        </article>
      </div>
    </>
  );
}
