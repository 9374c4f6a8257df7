/** The inline edit of a garage card: Garage Name and Address with Cancel and Save. */
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { MAX_TEXT_LENGTH } from '../../../../common/contracts/fields';
import type { Garage, UpdateGarageBody } from '../../../../common/contracts/stock';
import { Button } from '../../../components/ui/Button';
import { FormAlert } from '../../../components/ui/FormAlert';
import { AddressField } from '../../../components/ui/AddressField';
import { TextField } from '../../../components/ui/TextField';
import { errorMessages } from '../../../lib/form-errors';
import { useUpdateGarage } from '../api/update-garage';
import { garageDetailsForm, type GarageDetailsDraft } from '../garage-forms';

interface GarageDetailsFormProps {
  garage: Garage;
  onDone: () => void;
}

/** Renders the form; `onDone` after Cancel or a successful save. */
export function GarageDetailsForm({ garage, onDone }: GarageDetailsFormProps) {
  const id = useId();
  const update = useUpdateGarage();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<GarageDetailsDraft, unknown, UpdateGarageBody>({
    resolver: zodResolver(garageDetailsForm),
    defaultValues: { name: garage.name, address: garage.address },
  });
  const onSubmit = handleSubmit((body) => update.mutate({ id: garage.id, body }, { onSuccess: onDone }));

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3">
      {errorMessages(errors, ['name', 'address']).map((message) => (
        <FormAlert key={message} message={message} />
      ))}
      <TextField id={`${id}-name`} label="Garage Name" autoFocus maxLength={MAX_TEXT_LENGTH} invalid={Boolean(errors.name)} {...register('name')} />
      <AddressField
        id={`${id}-address`}
        invalid={Boolean(errors.address)}
        {...register('address')}
      />
      <div className="flex gap-2">
        <Button variant="secondary" onClick={onDone} className="flex-1 sm:flex-none">
          Cancel
        </Button>
        <Button type="submit" isBusy={update.isPending} className="flex-1 sm:flex-none">
          {update.isPending ? 'Saving...' : 'Save'}
        </Button>
      </div>
    </form>
  );
}
