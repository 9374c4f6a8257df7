/**
 * One property of a pick list (docs/product.md "Screens: Pick list"): its arrivals (day, guests,
 * nights), what the lines buy at the company's service level, per line what the property holds, what the garage holds and the quantity to take
 * (editable on the number pad, a whole number from 0), the garage's shortfall marked, and 'Mark as
 * delivered'. A delivered property shows what was delivered instead.
 */
import { Link } from 'react-router';
import { CircleCheck, PackageCheck } from 'lucide-react';
import { grouped, MAX_QUANTITY } from '../../../../common/contracts/fields';
import type { PickListUnit } from '../../../../common/contracts/forecast';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { formatCalendarDay } from '../../../lib/format';
import { serviceText } from '../forecast-text';
import { lineKey, type PlannedLine } from '../pick-list';

/** 'Arrives Fri, Nov 27 · 2 guests · 3 nights'. */
export function arrivalText(arrival: PickListUnit['arrivals'][number]): string {
  return `Arrives ${formatCalendarDay(arrival.arrival_date)} · ${arrival.guests} ${arrival.guests === 1 ? 'guest' : 'guests'} · ${arrival.nights} ${arrival.nights === 1 ? 'night' : 'nights'}`;
}

interface PickListPropertyCardProps {
  property: PickListUnit;
  garageName: string;
  /** The garage's stock of an item now (pieces, by item id). */
  garageQuantity: (itemId: string) => number;
  /** An item's name, by item id (common/pick-list.ts `itemNames`). */
  nameOf: (itemId: string) => string;
  planned: ReadonlyMap<string, PlannedLine>;
  /** What was delivered, when it was: the card then shows it as done. */
  delivered?: readonly { item_id: string; item_name: string; quantity: number }[];
  /** With `delivered`: what the delivery did not bring (pick-list.ts `leftBehind`). */
  leftBehind?: readonly { item_id: string; item_name: string; quantity: number }[];
  onType: (key: string, text: string) => void;
  onDeliver: () => void;
}

/** Renders the property's card. */
export function PickListPropertyCard({ property, garageName, garageQuantity, nameOf, planned, delivered, leftBehind, onType, onDeliver }: PickListPropertyCardProps) {
  const headingId = `pick-${property.unit_id}`;
  const service = serviceText(property.service);
  return (
    <Card aria-labelledby={headingId} className={`flex flex-col gap-3 p-4 break-inside-avoid ${delivered ? 'bg-green-50' : ''}`} data-testid="pick-list-property">
      <div>
        <h2 id={headingId} className="text-lg font-semibold break-words">
          <Link to={`/unit/${encodeURIComponent(property.unit_id)}`} className="flex min-h-11 items-center text-blue-700 hover:underline print:min-h-0">
            {property.unit_name}
          </Link>
        </h2>
        <p className="text-sm break-words text-slate-600">{property.address}</p>
        <ul className="mt-1 text-base font-medium text-slate-800">
          {property.arrivals.map((arrival) => (
            <li key={arrival.stay_id}>{arrivalText(arrival)}</li>
          ))}
        </ul>
        {service && (
          <p className="mt-1 text-sm text-slate-700" data-testid="pick-list-service">
            {service}
          </p>
        )}
      </div>
      {delivered ? (
        <div className="flex flex-col gap-1" data-testid="pick-list-delivered">
          <p className="flex items-center gap-2 text-base font-semibold text-green-800">
            <CircleCheck className="size-5" aria-hidden="true" />
            Delivered
          </p>
          <p className="text-sm text-slate-700">{delivered.map((line) => `${line.quantity} ${line.item_name}`).join(', ')}</p>
          {leftBehind && leftBehind.length > 0 && (
            <p className="text-sm font-medium text-red-700" data-testid="pick-list-left-behind">
              {`Left behind, still short: ${leftBehind.map((line) => `${line.quantity} ${line.item_name}`).join(', ')}`}
            </p>
          )}
        </div>
      ) : (
        <>
          <ul className="divide-y divide-slate-100">
            {property.lines.map((line) => {
              const key = lineKey(property.unit_id, line.item_id);
              const plan = planned.get(key);
              const inputId = `qty-${key}`;
              const short = plan?.short ?? 0;
              return (
                <li key={line.item_id} className={`flex flex-wrap items-center gap-x-3 gap-y-1 py-2 ${short > 0 ? '-mx-2 rounded-lg bg-red-50 px-2' : ''}`} data-testid="pick-list-line">
                  <div className="min-w-0 flex-1 basis-40">
                    <label htmlFor={inputId} className="text-base font-semibold break-words text-slate-900">
                      {nameOf(line.item_id)}
                    </label>
                    <p className="text-sm text-slate-600">{`${line.quantity} there now · ${garageQuantity(line.item_id)} in ${garageName}`}</p>
                    {short > 0 && <p className="text-sm font-semibold text-red-700">{`${garageName} is short by ${short}`}</p>}
                    {plan?.error && (
                      <p id={`${inputId}-error`} role="alert" className="text-sm text-red-700">
                        {plan.error}
                      </p>
                    )}
                  </div>
                  <input
                    id={inputId}
                    type="text"
                    inputMode="numeric"
                    pattern="[0-9]*"
                    enterKeyHint="done"
                    autoComplete="off"
                    maxLength={grouped(MAX_QUANTITY).length}
                    value={plan?.text ?? String(line.bring)}
                    onChange={(event) => onType(key, event.target.value)}
                    aria-invalid={plan?.error ? true : undefined}
                    aria-describedby={plan?.error ? `${inputId}-error` : undefined}
                    className={`min-h-12 w-20 rounded-lg border bg-white px-3 py-2 text-center text-lg text-slate-900 tabular-nums focus:outline-2 ${
                      plan?.error ? 'border-red-500 focus:outline-red-500' : 'border-slate-300 focus:outline-blue-600'
                    }`}
                  />
                </li>
              );
            })}
          </ul>
          <Button onClick={onDeliver} className="min-h-12 w-full print:hidden sm:w-auto sm:self-end">
            <PackageCheck className="size-5" aria-hidden="true" />
            Mark as delivered
            <span className="sr-only">{` to ${property.unit_name}`}</span>
          </Button>
        </>
      )}
    </Card>
  );
}
