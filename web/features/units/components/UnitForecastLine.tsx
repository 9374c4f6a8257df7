/**
 * Unit detail's line of the forecast (docs/product.md "Screens: Forecast"): 'Next 7 days: 3 stays'
 * and, when some item would start a check-in short, how many, as a link to the Forecast screen;
 * below it, when the property's history is too short to learn its usage from, what the forecast
 * uses instead.
 */
import { Link } from 'react-router';
import { CalendarDays } from 'lucide-react';
import type { UnitForecastAnswer } from '../../../../common/contracts/forecast';
import { usageHistoryText } from '../../../lib/usage-history';
import { shortItemsText, staysText } from '../unit-forecast';

/** Renders the line for the unit's forecast. */
export function UnitForecastLine({ forecast }: { forecast: UnitForecastAnswer }) {
  const short = shortItemsText(forecast);
  const history = usageHistoryText(forecast.past_stays);
  return (
    <div data-testid="unit-forecast">
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-base text-slate-700">
        <CalendarDays className="size-5 shrink-0 text-slate-500" aria-hidden="true" />
        <span>{staysText(forecast)}</span>
        {short && (
          <Link to={`/forecast?horizon=${forecast.horizon_days}`} className="inline-flex min-h-11 items-center font-semibold text-red-700 hover:underline">
            {short}
          </Link>
        )}
      </p>
      {history && (
        <p className="mt-1 text-sm text-slate-600" data-testid="unit-forecast-history">
          {history}
        </p>
      )}
    </div>
  );
}
