/**
 * 'Add Manually' on the unit page (docs/product.md "Screens: Unit detail"): where the stock comes
 * from — the unit's garage (a transfer: the garage loses what the unit gains; the default when the
 * unit has a garage) or outside (a purchase or delivery) — an item and a quantity (at least 1,
 * default 1).
 */
import { useId } from 'react';
import { useForm, useWatch, type UseFormRegister } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Item, Unit } from '../../../../common/contracts/stock';
import { WithItems } from '../../../components/stock-rows/WithItems';
import { Button } from '../../../components/ui/Button';
import { Dialog, DialogActions } from '../../../components/ui/Dialog';
import { FormAlert } from '../../../components/ui/FormAlert';
import { SelectField } from '../../../components/ui/SelectField';
import { TextField } from '../../../components/ui/TextField';
import { errorMessages } from '../../../lib/form-errors';
import { useGarages } from '../../../lib/queries/get-garages';
import { useAddUnitStock } from '../api/add-unit-stock';
import { useTransferUnitStock } from '../api/transfer-unit-stock';
import { addStockForm, emptyAddStockDraft, type AddStockDraft, type AddStockRequest } from '../unit-forms';

function SourceOption({ id, value, title, hint, disabled, register }: {
  id: string;
  value: AddStockDraft['source'];
  title: string;
  hint: string;
  disabled?: boolean;
  register: UseFormRegister<AddStockDraft>;
}) {
  return (
    <label
      htmlFor={id}
      className={`flex min-h-11 items-start gap-3 rounded-lg border border-slate-300 px-3 py-2 has-[:checked]:border-blue-600 has-[:checked]:bg-blue-50 ${
        disabled ? 'opacity-60' : ''
      }`}
    >
      <input id={id} type="radio" value={value} disabled={disabled} className="mt-1 size-5 shrink-0" {...register('source')} />
      <span>
        <span className="block text-base font-medium text-slate-900">{title}</span>
        <span className="block text-sm text-slate-600">{hint}</span>
      </span>
    </label>
  );
}

function AddStockForm({ unit, items, onClose }: { unit: Unit; items: Item[]; onClose: () => void }) {
  const id = useId();
  const add = useAddUnitStock();
  const transfer = useTransferUnitStock();
  const garages = useGarages();
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useForm<AddStockDraft, unknown, AddStockRequest>({ resolver: zodResolver(addStockForm), defaultValues: emptyAddStockDraft(unit.garage !== null) });
  const [source, itemId] = useWatch({ control, name: ['source', 'item_id'] });
  const garage = unit.garage;
  const held = garage ? garages.data?.find((g) => g.id === garage.id)?.inventory.find((row) => row.item_id === itemId)?.quantity : undefined;

  const onSubmit = handleSubmit(({ item_id, quantity, source: from }) => {
    const itemName = items.find((item) => item.id === item_id)?.name ?? 'item';
    if (from === 'garage' && garage) {
      transfer.mutate({ unitId: unit.id, itemId: item_id, quantity, itemName, garageName: garage.name }, { onSuccess: onClose });
    } else {
      add.mutate({ unitId: unit.id, body: { item_id, quantity }, itemName }, { onSuccess: onClose });
    }
  });
  const messages = errorMessages(errors, ['item_id', 'quantity']);
  const busy = add.isPending || transfer.isPending;

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      {messages.map((message) => (
        <FormAlert key={message} message={message} />
      ))}
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-slate-700">Where does it come from?</legend>
        <SourceOption
          id={`${id}-from-garage`}
          value="garage"
          title={garage ? `From ${garage.name}` : 'From the garage'}
          hint={garage ? 'Moved out of the garage: its stock goes down by the same amount.' : 'This unit has no garage assigned.'}
          disabled={!garage}
          register={register}
        />
        <SourceOption
          id={`${id}-from-outside`}
          value="outside"
          title="Received from outside"
          hint="A purchase or delivery: no garage stock changes."
          register={register}
        />
      </fieldset>
      <SelectField id={`${id}-item`} label="Select Item" invalid={Boolean(errors.item_id)} {...register('item_id')}>
        <option value="">-- Select an Item --</option>
        {items.map((item) => (
          <option key={item.id} value={item.id}>
            {item.name}
          </option>
        ))}
      </SelectField>
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
      {source === 'garage' && garage && itemId && held !== undefined && (
        <p className="text-sm text-slate-600" data-testid="garage-holds">{`${garage.name} has ${held}`}</p>
      )}
      <DialogActions>
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" isBusy={busy}>
          {busy ? 'Saving...' : 'Add'}
        </Button>
      </DialogActions>
    </form>
  );
}

interface AddStockDialogProps {
  open: boolean;
  unit: Unit;
  onClose: () => void;
}

/** Renders the dialog; it closes after a successful add. */
export function AddStockDialog({ open, unit, onClose }: AddStockDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} title="Add Manually">
      <WithItems>{(items) => <AddStockForm unit={unit} items={items} onClose={onClose} />}</WithItems>
    </Dialog>
  );
}
