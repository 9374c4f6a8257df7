/** The Add Garage dialog: name, address and the initial inventory (docs/product.md "Screens: Garages"). */
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { MAX_TEXT_LENGTH } from '../../../../common/contracts/fields';
import type { CreateGarageBody } from '../../../../common/contracts/stock';
import { skippedRowsMessage } from '../../../components/stock-rows/stock-rows';
import { StockRowsEditor } from '../../../components/stock-rows/StockRowsEditor';
import { useStockRowsEditor } from '../../../components/stock-rows/use-stock-rows-editor';
import { WithItems } from '../../../components/stock-rows/WithItems';
import { Button } from '../../../components/ui/Button';
import { Dialog, DialogActions } from '../../../components/ui/Dialog';
import { FormAlert } from '../../../components/ui/FormAlert';
import { AddressField } from '../../../components/ui/AddressField';
import { TextField } from '../../../components/ui/TextField';
import { errorMessages } from '../../../lib/form-errors';
import { useCreateGarage } from '../api/create-garage';
import { createGarageForm, emptyGarageDraft, type GarageDraft } from '../garage-forms';

function AddGarageForm({ onClose }: { onClose: () => void }) {
  const id = useId();
  const create = useCreateGarage();
  const form = useForm<GarageDraft, unknown, CreateGarageBody>({ resolver: zodResolver(createGarageForm), defaultValues: emptyGarageDraft });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = form;
  const stockRows = useStockRowsEditor(form, id);

  const onSubmit = handleSubmit((body) => create.mutate({ body, skipped: skippedRowsMessage(form.getValues('inventory')) }, { onSuccess: onClose }));

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      {errorMessages(errors, ['name', 'address']).map((message) => (
        <FormAlert key={message} message={message} />
      ))}
      <TextField id={`${id}-name`} label="Garage Name" maxLength={MAX_TEXT_LENGTH} invalid={Boolean(errors.name)} {...register('name')} />
      <AddressField
        id={`${id}-address`}
        invalid={Boolean(errors.address)}
        {...register('address')}
      />
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-2 text-base font-semibold text-slate-800">Initial Inventory</legend>
        <WithItems>
          {(items) => <StockRowsEditor {...stockRows} items={items} emptyText="No items added." />}
        </WithItems>
      </fieldset>
      <DialogActions>
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" isBusy={create.isPending}>
          {create.isPending ? 'Saving...' : 'Save'}
        </Button>
      </DialogActions>
    </form>
  );
}

/** Renders the dialog; closed, the form is discarded, so it opens empty next time. */
export function AddGarageDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} title="Add Garage">
      <AddGarageForm onClose={onClose} />
    </Dialog>
  );
}
