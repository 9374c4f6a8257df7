/** One ledger movement: '{item} changed by {±n} in {source}', who made it and when; increases green, decreases red. */
import type { DashboardLog } from '../../../../common/contracts/dashboard';
import { formatDateTime, formatSignedQuantity } from '../../../lib/format';

function toneOf(change: number): string {
  if (change > 0) return 'text-green-700';
  if (change < 0) return 'text-red-700';
  return 'text-slate-700';
}

/** Renders the movement. */
export function ActivityEntry({ log }: { log: DashboardLog }) {
  return (
    <div className="rounded-lg border border-slate-200 px-3 py-2">
      <p className={`text-base font-medium break-words ${toneOf(log.quantity_change)}`}>
        {`${log.item_name} changed by ${formatSignedQuantity(log.quantity_change)} in ${log.source_name}`}
      </p>
      <p className="text-sm text-slate-500">
        {log.by && <span className="break-words">{`By ${log.by} · `}</span>}
        <time dateTime={log.created_at}>{formatDateTime(log.created_at)}</time>
      </p>
    </div>
  );
}
