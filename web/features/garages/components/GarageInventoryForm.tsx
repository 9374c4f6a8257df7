/**
 * Edit Inventory on a garage card: the garage's stock as item-and-quantity rows; Save Inventory
 * makes the stock exactly these rows (docs/product.md "Screens: Garages", "States and transitions").
 */
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Garage, GarageInventoryBody } from '../../../../common/contracts/stock';
import { rowsFromStock } from '../../../components/stock-rows/stock-rows';
import { StockRowsEditor } from '../../../components/stock-rows/StockRowsEditor';
import { useStockRowsEditor } from '../../../components/stock-rows/use-stock-rows-editor';
import { WithItems } from '../../../components/stock-rows/WithItems';
import { Button } from '../../../components/ui/Button';
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
  const form = useForm<GarageInventoryDraft, unknown, GarageInventoryBody>({
    resolver: zodResolver(garageInventoryForm),
    defaultValues: { inventory: rowsFromStock(garage.inventory) },
  });
  const stockRows = useStockRowsEditor(form, id);
  const onSubmit = form.handleSubmit((body) => save.mutate({ id: garage.id, body }, { onSuccess: onDone }));

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3">
      <WithItems>
        {(items) => <StockRowsEditor {...stockRows} items={items} emptyText="No inventory available" />}
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
