/**
 * One property that would start a check-in short (docs/product.md "Screens: Forecast"): its name
 * (to its page), its garage, the first check-in that starts short, when its history is too short
 * to learn its usage from, what the forecast uses instead, and, per item, what is there, what the
 * stays will use, why it is short and what to bring.
 */
import { Link } from 'react-router';
import { CalendarDays, Warehouse } from 'lucide-react';
import type { ShortUnitForecast } from '../../../../common/contracts/forecast';
import { Card } from '../../../components/ui/Card';
import { formatCalendarDay } from '../../../lib/format';
import { usageHistoryText } from '../../../lib/usage-history';
import { itemUseText, shortfallText } from '../forecast-text';

/** Renders the card; `horizonDays` words the expected use. */
export function PropertyForecastCard({ property, horizonDays }: { property: ShortUnitForecast; horizonDays: number }) {
  const headingId = `forecast-${property.unit_id}`;
  const history = usageHistoryText(property.past_stays);
  return (
    <Card aria-labelledby={headingId} className="flex flex-col gap-3 p-4" data-testid="forecast-property">
      <div className="flex flex-col gap-1">
        <h2 id={headingId} className="text-lg font-semibold break-words">
          <Link to={`/unit/${encodeURIComponent(property.unit_id)}`} className="text-blue-700 hover:underline">
            {property.unit_name}
          </Link>
        </h2>
        <p className="flex items-center gap-1.5 text-base font-medium text-red-700">
          <CalendarDays className="size-4 shrink-0" aria-hidden="true" />
          {`Check-in ${formatCalendarDay(property.first_shortfall_date)}`}
        </p>
        <p className="flex items-center gap-1.5 text-sm text-slate-600">
          <Warehouse className="size-4 shrink-0" aria-hidden="true" />
          {property.garage_name ?? 'No garage assigned'}
        </p>
        {history && (
          <p className="text-sm text-slate-600" data-testid="forecast-property-history">
            {history}
          </p>
        )}
      </div>
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
    </Card>
  );
}
