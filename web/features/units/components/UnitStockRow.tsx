/**
 * One item of the unit page's stock list (docs/product.md "Screens: Unit detail"): its quantity in the status
 * colour, minus and plus, and remove. On phones the steppers get a line of their own, away from
 * the remove button, so a thumb does not hit the wrong one.
 */
import { Minus, Plus, Trash2 } from 'lucide-react';
import type { UnitStockRow as Row } from '../../../../common/contracts/stock';
import { IconButton } from '../../../components/ui/IconButton';
import { QuantityBadge, StatusWord } from './StockStatus';

interface UnitStockRowProps {
  row: Row;
  /** Stock of this item in the unit's garage; undefined when the unit has no garage or it is not known. */
  garageQuantity: number | undefined;
  /** Plus or minus of this item is waiting for the server. */
  isAdjusting: boolean;
  isRemoving: boolean;
  onDecrease: () => void;
  onIncrease: () => void;
  onRemove: () => void;
}

/** Renders the row. */
export function UnitStockRow({ row, garageQuantity, isAdjusting, isRemoving, onDecrease, onIncrease, onRemove }: UnitStockRowProps) {
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-2 py-3 sm:flex-nowrap" data-testid="unit-stock-row" data-item-id={row.item_id}>
      <div className="min-w-0 flex-1 basis-40">
        <p className="text-base font-semibold break-words text-slate-900">{row.item_name}</p>
        <p className="flex flex-wrap items-center gap-x-2 text-sm text-slate-500">
          <StatusWord status={row.status} />
          {garageQuantity !== undefined && <span>{`${garageQuantity} in garage`}</span>}
        </p>
      </div>
      <IconButton icon={Trash2} label={`Remove ${row.item_name}`} tone="danger" isBusy={isRemoving} onClick={onRemove} className="sm:order-last" />
      <div role="group" aria-label={`Stock of ${row.item_name}`} className="flex w-full items-center gap-2 sm:w-auto">
        <IconButton icon={Minus} label={`Decrease ${row.item_name}`} outlined disabled={isAdjusting || isRemoving} onClick={onDecrease} className="size-12" />
        <QuantityBadge quantity={row.quantity} status={row.status} className="min-w-14 flex-1 py-2 text-lg sm:flex-none" />
        <IconButton icon={Plus} label={`Increase ${row.item_name}`} outlined disabled={isAdjusting || isRemoving} onClick={onIncrease} className="size-12" />
      </div>
    </li>
  );
}
