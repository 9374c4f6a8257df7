/**
 * One item of the unit page's stock list (docs/product.md "Screens: Unit detail"): its quantity in
 * the status colour, minus and plus (quick taps add up, stock-taps.ts), and remove; with a garage,
 * restock by quantity and, below the item's minimum, 'Fill to {minimum}'; what it lacks when it
 * needs stock (stock-needs.ts). On phones the steppers
 * get a line of their own, away from the remove button, so a thumb does not hit the wrong one.
 */
import { Minus, Plus, Trash2 } from 'lucide-react';
import { isBelowMinimum, type Unit, type UnitStockRow as Row } from '../../../../common/contracts/stock';
import { Button } from '../../../components/ui/Button';
import { IconButton } from '../../../components/ui/IconButton';
import { useRestockToMinimum } from '../api/restock-to-minimum';
import { useStockTaps } from '../use-stock-taps';
import { RestockQuantityForm } from './RestockQuantityForm';
import { QuantityBadge, StatusWord } from './StockStatus';

interface UnitStockRowProps {
  unit: Unit;
  row: Row;
  /** Stock of this item in the unit's garage; undefined when the unit has no garage or it is not known. */
  garageQuantity: number | undefined;
  /** The item's usage here, 'about 2.1 per stay', when the forecast knows it. */
  perStay?: string;
  isRemoving: boolean;
  /** The row the page was opened at (a dashboard alert), marked so the eye finds it. */
  isMarked?: boolean;
  /** What the row lacks, 'Below minimum by 3 · Bring 4 before Fri, Nov 27' (stock-needs.ts), when it needs stock. */
  need?: string;
  onRemove: () => void;
}

/** Renders the row. */
export function UnitStockRow({ unit, row, garageQuantity, perStay, isRemoving, isMarked = false, need, onRemove }: UnitStockRowProps) {
  const { tap, busy } = useStockTaps(unit, row, garageQuantity);
  const fill = useRestockToMinimum();
  const below = isBelowMinimum(row.quantity, row.minimum_threshold);
  return (
    <li
      className={`flex flex-wrap items-center gap-x-3 gap-y-2 py-3 ${isMarked ? '-mx-2 rounded-lg px-2 ring-2 ring-blue-600' : ''}`}
      data-testid="unit-stock-row"
      data-item-id={row.item_id}
      aria-current={isMarked ? 'location' : undefined}
    >
      <div className="min-w-0 flex-1 basis-40">
        <p className="text-base font-semibold break-words text-slate-900">{row.item_name}</p>
        <p className="flex flex-wrap items-center gap-x-2 text-sm text-slate-500">
          <StatusWord status={row.status} />
          <span>{`min ${row.minimum_threshold}`}</span>
          {garageQuantity !== undefined && <span>{`${garageQuantity} in garage`}</span>}
          {perStay && <span>{perStay}</span>}
        </p>
        {need && <p className="text-sm font-medium text-red-700">{need}</p>}
      </div>
      <IconButton icon={Trash2} label={`Remove ${row.item_name}`} tone="danger" isBusy={isRemoving} disabled={busy} onClick={onRemove} />
      <div role="group" aria-label={`Stock of ${row.item_name}`} className="flex w-full items-center gap-2">
        <IconButton icon={Minus} label={`Decrease ${row.item_name}`} outlined disabled={isRemoving} onClick={() => tap(-1)} className="size-12" />
        <QuantityBadge quantity={row.quantity} status={row.status} className="min-w-14 flex-1 py-2 text-lg" />
        <IconButton icon={Plus} label={`Increase ${row.item_name}`} outlined disabled={isRemoving} onClick={() => tap(1)} className="size-12" />
      </div>
      {unit.garage && (
        <div className="flex w-full flex-wrap items-start gap-2">
          <RestockQuantityForm unit={unit} row={row} garageName={unit.garage.name} />
          {below && (
            <Button
              variant="secondary"
              isBusy={fill.isPending}
              disabled={busy}
              onClick={() => fill.mutate({ unitId: unit.id, itemId: row.item_id, label: `${row.item_name} filled to ${row.minimum_threshold} at ${unit.name}` })}
              className="whitespace-nowrap"
            >
              {`Fill to ${row.minimum_threshold}`}
              <span className="sr-only">{` ${row.item_name}`}</span>
            </Button>
          )}
        </div>
      )}
    </li>
  );
}
