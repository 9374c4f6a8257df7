/**
 * Restock by quantity on a stock row (docs/product.md "Screens: Unit detail"): a number typed on
 * the phone's number pad moves that many from the unit's garage in one transfer. A number that is
 * not a whole one from 1 is refused here with the field's message.
 */
import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { grouped, MAX_QUANTITY } from '../../../../common/contracts/fields';
import { requestedQuantity, type Unit, type UnitStockRow } from '../../../../common/contracts/stock';
import { Button } from '../../../components/ui/Button';
import { numberText } from '../../../lib/number-text';
import { unitQuery } from '../../../lib/queries/get-unit';
import { isChangeKept } from '../../../lib/stock-write';
import { useTransferUnitStock } from '../api/transfer-unit-stock';
import { setRowQuantity } from '../unit-stock';

const quantityText = numberText(requestedQuantity);

/** Renders the quantity input and its 'Restock' button, for a unit with a garage. */
export function RestockQuantityForm({ unit, row, garageName }: { unit: Unit; row: UnitStockRow; garageName: string }) {
  const id = useId();
  const transfer = useTransferUnitStock();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = quantityText.safeParse(text.trim());
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    transfer.mutate(
      { unitId: unit.id, itemId: row.item_id, quantity: parsed.data, itemName: row.item_name, garageName },
      {
        onSuccess: () => setText(''),
        onError: (failure) => {
          if (!isChangeKept(failure)) return;
          // Kept on the phone: the row shows the pieces moved until the server's number arrives.
          setText('');
          queryClient.setQueryData(unitQuery(unit.id).queryKey, (cached) => (cached ? setRowQuantity(cached, row.item_id, row.quantity + parsed.data) : cached));
        },
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-1" aria-label={`Restock ${row.item_name} by quantity`}>
      <div className="flex items-center gap-2">
        <label htmlFor={`${id}-quantity`} className="sr-only">
          {`Quantity of ${row.item_name} to move from ${garageName}`}
        </label>
        <input
          id={`${id}-quantity`}
          type="text"
          inputMode="numeric"
          pattern="[0-9]*"
          enterKeyHint="done"
          autoComplete="off"
          maxLength={grouped(MAX_QUANTITY).length}
          placeholder="Qty"
          value={text}
          onChange={(event) => setText(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className={`min-h-11 w-20 rounded-lg border bg-white px-3 py-2 text-base text-slate-900 tabular-nums placeholder:text-slate-400 focus:outline-2 ${
            error ? 'border-red-500 focus:outline-red-500' : 'border-slate-300 focus:outline-blue-600'
          }`}
        />
        <Button type="submit" variant="secondary" isBusy={transfer.isPending} className="whitespace-nowrap">
          Restock
        </Button>
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </form>
  );
}
