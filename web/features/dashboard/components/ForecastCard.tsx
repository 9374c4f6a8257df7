/**
 * The dashboard card "Runs out before a check-in" (docs/product.md "Screens: Forecast"): how many
 * properties would start a check-in short in the next days and the first few, each a link to the
 * property with its day and the items short, with a link to the full list on the Forecast screen
 * ('See all 13 properties'). Loaded after the
 * dashboard's first paint (decision 016): DashboardRoute imports it lazily, inside its frame.
 */
import { Link } from 'react-router';
import { useForecastSummary } from '../api/get-forecast-summary';
import { summaryCount, summaryDay, summaryItems } from '../forecast-card-text';
import { ForecastCardFrame, ForecastCardLoading } from './ForecastCardFrame';

/** Renders the card; on a failed load it says so with a retry. */
export function ForecastCard() {
  const summary = useForecastSummary();
  if (!summary.data && !summary.isError) return <ForecastCardLoading />;
  let content;
  if (summary.data && summary.data.properties_short === 0) {
    content = (
      <p className="flex flex-1 items-center justify-center text-center text-base text-slate-500">{`No unit runs short in the next ${summary.data.horizon_days} days`}</p>
    );
  } else if (summary.data) {
    content = (
      <>
        <p className="text-base font-semibold text-red-700" data-testid="forecast-card-count">
          {summaryCount(summary.data)}
        </p>
        {/* Two lines per property, cut with an ellipsis rather than wrapped: the frame's height holds. */}
        <ul className="flex flex-col gap-2">
          {summary.data.first.map((entry) => (
            <li key={entry.unit_id} className="text-base text-slate-700">
              <div className="flex items-baseline justify-between gap-3">
                {/* 44 px tall to the thumb (py-3), without making the frame taller (-my-3). */}
                <Link to={`/unit/${encodeURIComponent(entry.unit_id)}`} className="-my-3 min-w-0 truncate py-3 font-semibold text-blue-700 hover:underline">
                  {entry.unit_name}
                </Link>
                <span className="shrink-0 text-red-700">{summaryDay(entry)}</span>
              </div>
              <p className="truncate" title={summaryItems(entry)}>
                {summaryItems(entry)}
              </p>
            </li>
          ))}
        </ul>
      </>
    );
  } else {
    content = (
      <button type="button" onClick={() => void summary.refetch()} className="m-auto min-h-11 text-base font-medium text-blue-700 hover:underline">
        This content could not be loaded. Try again
      </button>
    );
  }
  return <ForecastCardFrame propertiesShort={summary.data?.properties_short}>{content}</ForecastCardFrame>;
}
