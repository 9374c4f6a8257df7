/** 'Add Manually' on the unit page (docs/product.md "Screens: Unit detail"): an item and a quantity (at least 1, default 1). */
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { AddUnitStockBody } from '../../../../common/contracts/stock';
import { WithItems } from '../../../components/stock-rows/WithItems';
import { Button } from '../../../components/ui/Button';
import { Dialog, DialogActions } from '../../../components/ui/Dialog';
import { FormAlert } from '../../../components/ui/FormAlert';
import { SelectField } from '../../../components/ui/SelectField';
import { TextField } from '../../../components/ui/TextField';
import { useAddUnitStock } from '../api/add-unit-stock';
import { addStockForm, emptyAddStockDraft, errorMessages, type AddStockDraft } from '../unit-forms';

function AddStockForm({ unitId, onClose }: { unitId: string; onClose: () => void }) {
  const id = useId();
  const add = useAddUnitStock();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<AddStockDraft, unknown, AddUnitStockBody>({ resolver: zodResolver(addStockForm), defaultValues: emptyAddStockDraft });
  const onSubmit = handleSubmit((body) => add.mutate({ unitId, body }, { onSuccess: onClose }));
  const messages = errorMessages(errors, ['item_id', 'quantity']);

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      {messages.map((message) => (
        <FormAlert key={message} message={message} />
      ))}
      <WithItems>
        {(items) => (
          <SelectField id={`${id}-item`} label="Select Item" invalid={Boolean(errors.item_id)} {...register('item_id')}>
            <option value="">-- Select an Item --</option>
            {items.map((item) => (
              <option key={item.id} value={item.id}>
                {item.name}
              </option>
            ))}
          </SelectField>
        )}
      </WithItems>
      <TextField
        id={`${id}-quantity`}
        label="Quantity"
        type="number"
        inputMode="numeric"
        min={1}
        step={1}
        invalid={Boolean(errors.quantity)}
        {...register('quantity')}
      />
      <DialogActions>
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" isBusy={add.isPending}>
          {add.isPending ? 'Saving...' : 'Add'}
        </Button>
      </DialogActions>
    </form>
  );
}

interface AddStockDialogProps {
  open: boolean;
  unitId: string;
  onClose: () => void;
}

/** Renders the dialog; it closes after a successful add. */
export function AddStockDialog({ open, unitId, onClose }: AddStockDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} title="Add Manually">
      <AddStockForm unitId={unitId} onClose={onClose} />
    </Dialog>
  );
}
