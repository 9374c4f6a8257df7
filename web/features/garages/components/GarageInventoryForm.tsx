/**
 * Edit Inventory on a garage card: the garage's stock as item-and-quantity rows; Save Inventory
 * makes the stock exactly these rows (SPEC.md "Garages", §4).
 */
import { useId } from 'react';
import { useFieldArray, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Garage, GarageInventoryBody } from '../../../../common/contracts/stock';
import { Button } from '../../../components/ui/Button';
import { StockRowsEditor } from '../../items/components/StockRowsEditor';
import { WithItems } from '../../items/components/WithItems';
import { emptyStockRow, rowsFromStock } from '../../items/stock-rows';
import { useSaveGarageInventory } from '../api/save-garage-inventory';
import { garageInventoryForm, type GarageInventoryDraft } from '../garage-forms';

interface GarageInventoryFormProps {
  garage: Garage;
  onDone: () => void;
}

/** Renders the rows with Add Item, Cancel and Save Inventory; `onDone` after Cancel or a save. */
export function GarageInventoryForm({ garage, onDone }: GarageInventoryFormProps) {
  const id = useId();
  const save = useSaveGarageInventory();
  const { register, control, handleSubmit } = useForm<GarageInventoryDraft, unknown, GarageInventoryBody>({
    resolver: zodResolver(garageInventoryForm),
    defaultValues: { inventory: rowsFromStock(garage.inventory) },
  });
  const { fields, append, remove } = useFieldArray({ control, name: 'inventory' });
  const rows = useWatch({ control, name: 'inventory' });
  const onSubmit = handleSubmit((body) => save.mutate({ id: garage.id, body }, { onSuccess: onDone }));

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3">
      <WithItems>
        {(items) => (
          <StockRowsEditor
            idPrefix={id}
            rowKeys={fields.map((field) => field.id)}
            rows={rows}
            items={items}
            registerItem={(index) => register(`inventory.${index}.item_id`)}
            registerQuantity={(index) => register(`inventory.${index}.quantity`)}
            onAdd={() => append({ ...emptyStockRow })}
            onRemove={remove}
            emptyText="No inventory available"
          />
        )}
      </WithItems>
      <div className="flex gap-2">
        <Button variant="secondary" onClick={onDone} className="flex-1 sm:flex-none">
          Cancel
        </Button>
        <Button type="submit" isBusy={save.isPending} className="flex-1 sm:flex-none">
          {save.isPending ? 'Saving...' : 'Save Inventory'}
        </Button>
      </div>
    </form>
  );
}
