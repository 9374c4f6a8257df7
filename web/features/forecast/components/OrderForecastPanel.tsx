/**
 * 'To order (lead time N days)' on the Pick list screen (docs/product.md "Screens: Pick list"): per
 * item, what to order for the garage so that its properties' stays within the lead time are
 * covered and the garage keeps its minimum. Shows nothing while loading, on failure, or when
 * nothing needs ordering.
 */
import { useId } from 'react';
import { Card } from '../../../components/ui/Card';
import { useOrderForecast } from '../api/get-order-forecast';

/** Renders the panel for `garageId`. */
export function OrderForecastPanel({ garageId }: { garageId: string }) {
  const headingId = useId();
  const order = useOrderForecast(garageId);
  const lines = order.data?.items.filter((line) => line.order > 0) ?? [];
  if (!order.data || lines.length === 0) return null;
  const days = order.data.lead_time_days;
  return (
    <Card aria-labelledby={headingId} className="flex flex-col gap-2 p-4 sm:p-6" data-testid="order-forecast">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        {`To order (lead time ${days} ${days === 1 ? 'day' : 'days'})`}
      </h2>
      <ul className="divide-y divide-slate-100">
        {lines.map((line) => (
          <li key={line.item_id} className="flex items-center justify-between gap-3 py-2">
            <div className="min-w-0">
              <p className="text-base font-medium break-words text-slate-900">{line.item_name}</p>
              <p className="text-sm text-slate-600">{`${line.garage_quantity} in garage · ${line.needed} needed · min ${line.minimum_threshold}`}</p>
            </div>
            <span className="shrink-0 text-base font-semibold text-slate-900 tabular-nums">{`Order ${line.order}`}</span>
          </li>
        ))}
      </ul>
    </Card>
  );
}
