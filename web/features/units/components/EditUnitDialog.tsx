/**
 * The Edit Unit form of the unit page (docs/product.md "Screens: Unit detail"), opened by 'Edit Unit' and by
 * 'Change Garage' / 'Assign Garage': Unit Name, Address and Assigned Garage.
 */
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { MAX_TEXT_LENGTH } from '../../../../common/contracts/fields';
import type { Unit, UpdateUnitBody } from '../../../../common/contracts/stock';
import { Button } from '../../../components/ui/Button';
import { Dialog, DialogActions } from '../../../components/ui/Dialog';
import { FormAlert } from '../../../components/ui/FormAlert';
import { LoadError } from '../../../components/ui/LoadError';
import { SelectField } from '../../../components/ui/SelectField';
import { Spinner } from '../../../components/ui/Spinner';
import { AddressField } from '../../../components/ui/AddressField';
import { TextField } from '../../../components/ui/TextField';
import { errorMessages } from '../../../lib/form-errors';
import { useGarages } from '../../../lib/queries/get-garages';
import { useUpdateUnit } from '../api/update-unit';
import { editUnitForm, garageOptionLabel, type EditUnitDraft } from '../unit-forms';

interface EditUnitFormProps {
  unit: Unit;
  /** Opened by 'Change Garage' / 'Assign Garage': the garage picker gets the focus. */
  focusGarage: boolean;
  onClose: () => void;
}

function EditUnitForm({ unit, focusGarage, onClose }: EditUnitFormProps) {
  const id = useId();
  const garages = useGarages();
  const update = useUpdateUnit();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<EditUnitDraft, unknown, UpdateUnitBody>({
    resolver: zodResolver(editUnitForm),
    defaultValues: { name: unit.name, address: unit.address, garage_id: unit.garage_id ?? '' },
  });
  const onSubmit = handleSubmit((body) => update.mutate({ id: unit.id, body }, { onSuccess: onClose }));
  const messages = errorMessages(errors, ['name', 'address', 'garage_id']);

  let garagePicker;
  if (garages.data) {
    garagePicker = (
      <SelectField id={`${id}-garage`} label="Assigned Garage" autoFocus={focusGarage} {...register('garage_id')}>
        <option value="">-- Select a Garage --</option>
        {garages.data.map((garage) => (
          <option key={garage.id} value={garage.id}>
            {garageOptionLabel(garage)}
          </option>
        ))}
      </SelectField>
    );
  } else if (garages.isError) {
    garagePicker = <LoadError onRetry={() => void garages.refetch()} />;
  } else {
    garagePicker = <Spinner className="size-6 text-blue-700" label="Loading garages" />;
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      {messages.map((message) => (
        <FormAlert key={message} message={message} />
      ))}
      <TextField id={`${id}-name`} label="Unit Name" maxLength={MAX_TEXT_LENGTH} invalid={Boolean(errors.name)} {...register('name')} />
      <AddressField
        id={`${id}-address`}
        invalid={Boolean(errors.address)}
        {...register('address')}
      />
      {garagePicker}
      <DialogActions>
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        {/* Saving waits for the garages, so an unloaded picker cannot unassign the garage by accident. */}
        <Button type="submit" isBusy={update.isPending} disabled={!garages.data}>
          {update.isPending ? 'Saving...' : 'Save'}
        </Button>
      </DialogActions>
    </form>
  );
}

interface EditUnitDialogProps {
  open: boolean;
  unit: Unit;
  focusGarage: boolean;
  onClose: () => void;
}

/** Renders the dialog; it closes after a successful save. */
export function EditUnitDialog({ open, unit, focusGarage, onClose }: EditUnitDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} title="Edit Unit">
      <EditUnitForm unit={unit} focusGarage={focusGarage} onClose={onClose} />
    </Dialog>
  );
}
