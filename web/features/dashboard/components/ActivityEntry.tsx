/** One ledger movement: '{item} changed by {±n} in {source}', who made it and when; increases green, decreases red. */
import type { DashboardMovement } from '../../../../common/contracts/dashboard';
import { formatDateTime, formatSignedQuantity } from '../../../lib/format';

function toneOf(change: number): string {
  if (change > 0) return 'text-green-700';
  if (change < 0) return 'text-red-700';
  return 'text-slate-700';
}

/** Renders the movement. */
export function ActivityEntry({ movement }: { movement: DashboardMovement }) {
  return (
    <div className="rounded-lg border border-slate-200 px-3 py-2">
      <p className={`text-base font-medium break-words ${toneOf(movement.quantity_change)}`}>
        {`${movement.item_name} changed by ${formatSignedQuantity(movement.quantity_change)} in ${movement.source_name}`}
      </p>
      <p className="text-sm text-slate-500">
        {movement.by && <span className="break-words">{`By ${movement.by} · `}</span>}
        <time dateTime={movement.created_at}>{formatDateTime(movement.created_at)}</time>
      </p>
    </div>
  );
}
