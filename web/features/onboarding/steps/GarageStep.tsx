/**
 * Onboarding step 3, Storage: the name and address of the first storage location (garage), and how
 * many of each item it holds today (docs/decisions/027-first-day-setup.md).
 */
import { useFieldArray, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { MAX_TEXT_LENGTH } from '../../../../common/contracts/fields';
import type { GarageStepBody } from '../../../../common/contracts/onboarding';
import type { Item } from '../../../../common/contracts/stock';
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
  /** The saved items, in the order of `draft.stock`. */
  items: readonly Item[];
  onDraftChange: (draft: GarageDraft) => void;
  onDone: (saved: GarageStepBody) => void;
}

/** The storage step. */
export function GarageStep({ draft, items, onDraftChange, onDone }: GarageStepProps) {
  const save = useSaveGarage();
  const {
    register,
    control,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<GarageDraft, unknown, GarageStepBody>({ resolver: zodResolver(garageForm), defaultValues: draft });
  const { fields } = useFieldArray({ control, name: 'stock' });
  const nameOf = new Map(items.map((i) => [i.id, i.name]));
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
        <fieldset className="flex flex-col gap-3 rounded-xl border border-slate-200 p-4">
          <legend className="px-1 text-base font-semibold text-slate-900">Starting quantities</legend>
          <p className="text-sm text-slate-600">
            How many of each item are in storage today? Leave empty for none; you can count again later.
          </p>
          {fields.length === 0 && <p className="text-base text-slate-600">No items added.</p>}
          {fields.map((field, index) => (
            <TextField
              key={field.id}
              id={`garage-stock-${index}`}
              label={nameOf.get(field.item_id) ?? 'Item'}
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              placeholder="0"
              error={errors.stock?.[index]?.quantity?.message}
              {...register(`stock.${index}.quantity`)}
            />
          ))}
        </fieldset>
        <StepActions isLast={false} isBusy={save.isPending} backTo="/onboarding/items" />
      </form>
    </StepCard>
  );
}
