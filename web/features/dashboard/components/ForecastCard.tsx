/**
 * The dashboard card "Runs out before a check-in" (docs/product.md "Screens: Forecast"): how many
 * properties would start a check-in short in the next days and the first few, each a link to the
 * property, with a link to the Forecast screen. Loaded after the dashboard's first paint
 * (decision 016): DashboardRoute imports it lazily.
 */
import { useId } from 'react';
import { Link } from 'react-router';
import { CalendarClock } from 'lucide-react';
import { Card } from '../../../components/ui/Card';
import { Spinner } from '../../../components/ui/Spinner';
import { useForecastSummary } from '../api/get-forecast-summary';
import { summaryCount, summaryLine } from '../forecast-card-text';

/** Renders the card; on a failed load it says so with a retry. */
export function ForecastCard() {
  const headingId = useId();
  const summary = useForecastSummary();
  let content;
  if (summary.data && summary.data.properties_short === 0) {
    content = <p className="py-6 text-center text-base text-slate-500">{`No property runs short in the next ${summary.data.horizon_days} days`}</p>;
  } else if (summary.data) {
    content = (
      <>
        <p className="text-base font-semibold text-red-700" data-testid="forecast-card-count">
          {summaryCount(summary.data)}
        </p>
        <ul className="flex flex-col gap-2">
          {summary.data.first.map((entry) => (
            <li key={entry.unit_id} className="text-base text-slate-700">
              <Link to={`/unit/${encodeURIComponent(entry.unit_id)}`} className="font-semibold text-blue-700 hover:underline">
                {entry.unit_name}
              </Link>
              {`: ${summaryLine(entry)}`}
            </li>
          ))}
        </ul>
      </>
    );
  } else if (summary.isError) {
    content = (
      <button type="button" onClick={() => void summary.refetch()} className="min-h-11 text-base font-medium text-blue-700 hover:underline">
        This content could not be loaded. Try again
      </button>
    );
  } else {
    content = <Spinner className="size-6" label="Loading the forecast" />;
  }
  return (
    <Card aria-labelledby={headingId} data-testid="forecast-card" className="flex flex-col gap-3 p-4">
      <h2 id={headingId} className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        <CalendarClock className="size-5 text-red-700" aria-hidden="true" />
        Runs out before a check-in
      </h2>
      {content}
      <Link to="/forecast" className="mt-auto min-h-11 self-start py-2 text-base font-medium text-blue-700 hover:underline">
        Open the forecast
      </Link>
    </Card>
  );
}
