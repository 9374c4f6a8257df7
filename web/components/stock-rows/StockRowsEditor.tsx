/**
 * The editable item-and-quantity rows of a stock form, with 'Add Item' (docs/product.md "Screens: Garages",
 * "Add Unit"). The parent form owns the values (react-hook-form) and passes in how each input
 * registers; an item already picked in one row is not offered again in the others.
 */
import type { ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { Link } from 'react-router';
import { Plus, Trash2 } from 'lucide-react';
import type { Item } from '../../../common/contracts/stock';
import { Button } from '../ui/Button';
import { IconButton } from '../ui/IconButton';
import { SelectField } from '../ui/SelectField';
import { TextField } from '../ui/TextField';
import { itemsPickedElsewhere, type StockRowDraft } from './stock-rows';

export interface StockRowsEditorProps {
  /** Makes the inputs' ids unique on the page. */
  idPrefix: string;
  /** One stable key per row (useFieldArray's field ids). */
  rowKeys: readonly string[];
  /** The rows' current values (useWatch), for the pickers and the status. */
  rows: readonly StockRowDraft[];
  items: readonly Item[];
  registerItem: (index: number) => UseFormRegisterReturn;
  registerQuantity: (index: number) => UseFormRegisterReturn;
  /** The message of a row's quantity ('Quantity must be a whole number'), if any. */
  quantityError?: (index: number) => string | undefined;
  onAdd: () => void;
  onRemove: (index: number) => void;
  /** Extra content under a row, e.g. the live stock status of Add Unit. */
  renderRowExtra?: (row: StockRowDraft, item: Item | undefined) => ReactNode;
  /** Shown when there are no rows. */
  emptyText: string;
}

/** Renders the rows and the Add Item button. */
export function StockRowsEditor({
  idPrefix,
  rowKeys,
  rows,
  items,
  registerItem,
  registerQuantity,
  quantityError,
  onAdd,
  onRemove,
  renderRowExtra,
  emptyText,
}: StockRowsEditorProps) {
  if (items.length === 0) {
    return (
      <p className="rounded-lg bg-slate-50 px-3 py-3 text-base text-slate-600">
        {'No items yet. Add them on the '}
        <Link to="/items" className="font-medium text-blue-700 underline">
          Items
        </Link>
        {' page first.'}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-3">
      {rowKeys.length === 0 && <p className="text-base text-slate-600">{emptyText}</p>}
      {rowKeys.map((key, index) => {
        const row = rows[index];
        const taken = itemsPickedElsewhere(rows, index);
        const item = row ? items.find((candidate) => candidate.id === row.item_id) : undefined;
        const id = `${idPrefix}-row-${index}`;
        const error = quantityError?.(index);
        return (
          <div key={key} className="flex flex-col gap-1 rounded-lg border border-slate-200 p-3" data-testid="stock-row">
            <div className="grid grid-cols-[minmax(0,1fr)_5.5rem_2.75rem] items-end gap-2">
              <SelectField id={`${id}-item`} label="Item" {...registerItem(index)}>
                <option value="">Select Item</option>
                {items.map((option) => (
                  <option key={option.id} value={option.id} disabled={taken.has(option.id)}>
                    {option.name}
                  </option>
                ))}
              </SelectField>
              <TextField
                id={`${id}-quantity`}
                label="Quantity"
                type="number"
                inputMode="numeric"
                min={0}
                step={1}
                invalid={Boolean(error)}
                aria-describedby={error ? `${id}-quantity-error` : undefined}
                {...registerQuantity(index)}
              />
              <IconButton icon={Trash2} label={`Remove row ${index + 1}`} tone="danger" onClick={() => onRemove(index)} />
            </div>
            {error && (
              <p id={`${id}-quantity-error`} className="text-sm text-red-700">
                {error}
              </p>
            )}
            {row && renderRowExtra?.(row, item)}
          </div>
        );
      })}
      <Button variant="secondary" onClick={onAdd} className="self-start">
        <Plus className="size-5" aria-hidden="true" />
        Add Item
      </Button>
    </div>
  );
}
