/**
 * One property that would start a check-in short (docs/product.md "Screens: Forecast"), compact
 * for a phone: its name (to its page, a 44 px target), the first check-in that starts short and
 * its garage on one line, and what to bring on at most two lines; a tap on that line opens, per
 * item, what is there, what the stays will use, why it is short and what to bring, and when its
 * history is too short to learn its usage from, what the forecast uses instead.
 */
import { Link } from 'react-router';
import { ChevronDown } from 'lucide-react';
import type { ShortUnitForecast } from '../../../../common/contracts/forecast';
import { Card } from '../../../components/ui/Card';
import { formatCalendarDay } from '../../../lib/format';
import { usageHistoryText } from '../../../lib/usage-history';
import { bringLine, itemUseText, shortfallText } from '../forecast-text';

/** Renders the card; `horizonDays` words the expected use. */
export function PropertyForecastCard({ property, horizonDays }: { property: ShortUnitForecast; horizonDays: number }) {
  const headingId = `forecast-${property.unit_id}`;
  const history = usageHistoryText(property.past_stays);
  return (
    <Card aria-labelledby={headingId} className="flex flex-col px-4 py-2" data-testid="forecast-property">
      <h3 id={headingId} className="text-lg font-semibold">
        <Link to={`/unit/${encodeURIComponent(property.unit_id)}`} className="flex min-h-11 items-center break-words text-blue-700 hover:underline">
          {property.unit_name}
        </Link>
      </h3>
      <p className="text-base text-slate-600">
        <span className="font-medium text-red-700">{`Check-in ${formatCalendarDay(property.first_shortfall_date)}`}</span>
        {` · ${property.garage_name ?? 'No garage assigned'}`}
      </p>
      <details className="group">
        <summary className="flex min-h-11 cursor-pointer list-none items-center gap-2 py-1 [&::-webkit-details-marker]:hidden">
          <span className="line-clamp-2 min-w-0 flex-1 text-base text-slate-900" data-testid="forecast-bring">
            {bringLine(property)}
          </span>
          <ChevronDown className="size-5 shrink-0 text-slate-500 transition-transform group-open:rotate-180" aria-hidden="true" />
          <span className="sr-only">Details</span>
        </summary>
        {history && (
          <p className="text-sm text-slate-600" data-testid="forecast-property-history">
            {history}
          </p>
        )}
        <ul className="divide-y divide-slate-100">
          {property.items.map((item) => {
            const why = shortfallText(item);
            return (
              <li key={item.item_id} className="flex items-center gap-3 py-2" data-testid="forecast-item">
                <div className="min-w-0 flex-1">
                  <p className="text-base font-semibold break-words text-slate-900">{item.item_name}</p>
                  <p className="text-sm text-slate-600">{itemUseText(item, horizonDays)}</p>
                  {why && <p className={`text-sm font-medium ${item.shortfall?.kind === 'runs_out' ? 'text-red-700' : 'text-amber-800'}`}>{why}</p>}
                </div>
                {item.bring > 0 && (
                  <span className="shrink-0 rounded-lg bg-blue-50 px-3 py-1.5 text-base font-semibold whitespace-nowrap text-blue-800 tabular-nums">
                    {`Bring ${item.bring}`}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      </details>
    </Card>
  );
}
