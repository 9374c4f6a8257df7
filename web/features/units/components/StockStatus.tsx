/**
 * The colours of a unit stock row's status (docs/product.md "Screens: Units"): low in the warning colour,
 * critical in the danger colour, otherwise the success colour. The word is always written too,
 * so the status does not depend on telling colours apart.
 */
import type { StockStatus } from '../../../../common/contracts/stock';

const badgeTone: Record<StockStatus, string> = {
  sufficient: 'bg-green-100 text-green-800 ring-green-200',
  low: 'bg-amber-100 text-amber-900 ring-amber-300',
  critical: 'bg-red-100 text-red-800 ring-red-200',
};

const wordTone: Record<StockStatus, string> = {
  sufficient: 'text-green-700',
  low: 'text-amber-700',
  critical: 'text-red-700',
};

/** A quantity in a pill coloured by `status`. */
export function QuantityBadge({ quantity, status, className = '' }: { quantity: number; status: StockStatus; className?: string }) {
  return (
    <span
      className={`inline-flex min-w-10 items-center justify-center rounded-full px-2.5 py-0.5 font-semibold tabular-nums ring-1 ${badgeTone[status]} ${className}`}
      data-status={status}
    >
      {quantity}
    </span>
  );
}

/** The status word ('sufficient', 'low', 'critical') in its colour. */
export function StatusWord({ status }: { status: StockStatus }) {
  return (
    <span className={`text-sm font-semibold capitalize ${wordTone[status]}`} data-status={status}>
      {status}
    </span>
  );
}
