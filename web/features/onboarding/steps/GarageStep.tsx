/** Onboarding step 3, Storage: the name and address of the first storage location (garage). */
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { MAX_TEXT_LENGTH } from '../../../../common/contracts/fields';
import type { GarageStepBody } from '../../../../common/contracts/onboarding';
import { FormAlert } from '../../../components/ui/FormAlert';
import { AddressField } from '../../../components/ui/AddressField';
import { TextField } from '../../../components/ui/TextField';
import { useSaveGarage } from '../api/save-garage';
import { StepActions } from '../components/StepActions';
import { StepCard } from '../components/StepCard';
import { garageDraft, garageForm, ownMessage, REQUIRED_FIELDS_MESSAGE, type GarageDraft } from '../forms';
import { useDraftAutosave } from '../use-draft-autosave';

interface GarageStepProps {
  draft: GarageDraft;
  onDraftChange: (draft: GarageDraft) => void;
  onDone: (saved: GarageStepBody) => void;
}

/** The storage step. */
export function GarageStep({ draft, onDraftChange, onDone }: GarageStepProps) {
  const save = useSaveGarage();
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<GarageDraft, unknown, GarageStepBody>({ resolver: zodResolver(garageForm), defaultValues: draft });
  useDraftAutosave(watch, garageDraft, onDraftChange);

  const onSubmit = handleSubmit((body) => save.mutate(body, { onSuccess: () => onDone(body) }));
  const missing = [errors.name, errors.address].some((error) => error?.message === REQUIRED_FIELDS_MESSAGE);

  return (
    <StepCard title="Storage location" intro="Where do you keep your supplies? Your properties will be restocked from here.">
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <FormAlert message={missing ? REQUIRED_FIELDS_MESSAGE : undefined} />
        <TextField
          id="garage-name"
          label="Storage Name"
          placeholder="e.g. Main Garage"
          maxLength={MAX_TEXT_LENGTH}
          invalid={Boolean(errors.name)}
          error={ownMessage(errors.name)}
          {...register('name')}
        />
        <AddressField
          id="garage-address"
          invalid={Boolean(errors.address)}
          error={ownMessage(errors.address)}
          {...register('address')}
        />
        <StepActions isLast={false} isBusy={save.isPending} />
      </form>
    </StepCard>
  );
}
