/**
 * Onboarding step 4, Properties: the units with name and address, and "Fill all properties to their
 * minimum from storage" with what that would take (docs/decisions/027-first-day-setup.md); saving
 * completes setup.
 */
import { useFieldArray, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Plus } from 'lucide-react';
import { MAX_TEXT_LENGTH } from '../../../../common/contracts/fields';
import type { OnboardingSetup, UnitsStepBody } from '../../../../common/contracts/onboarding';
import { Button } from '../../../components/ui/Button';
import { FormAlert } from '../../../components/ui/FormAlert';
import { AddressField } from '../../../components/ui/AddressField';
import { TextField } from '../../../components/ui/TextField';
import { useCompleteSetup } from '../api/complete-setup';
import { RowHeader } from '../components/RowHeader';
import { StepActions } from '../components/StepActions';
import { StepCard } from '../components/StepCard';
import { emptyUnit, hasMissingRequiredField, ownMessage, REQUIRED_FIELDS_MESSAGE, unitsDraft, unitsForm, type UnitsDraft } from '../forms';
import { coverage } from '../saved-setup';
import { useDraftAutosave } from '../use-draft-autosave';

interface UnitsStepProps {
  draft: UnitsDraft;
  onDraftChange: (draft: UnitsDraft) => void;
  /** Name of the storage location saved in the previous step, when this device knows it. */
  garageName: string | undefined;
  /** The saved items and storage stock, for what filling the properties would take. */
  saved: OnboardingSetup;
  onDone: () => void;
}

/** The properties step. */
export function UnitsStep({ draft, onDraftChange, garageName, saved, onDone }: UnitsStepProps) {
  const complete = useCompleteSetup();
  const {
    register,
    control,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<UnitsDraft, unknown, UnitsStepBody>({ resolver: zodResolver(unitsForm), defaultValues: draft });
  const { fields, append, remove } = useFieldArray({ control, name: 'units' });
  useDraftAutosave(watch, unitsDraft, onDraftChange);
  const fill = watch('fill_to_minimum');
  const needs = coverage(saved, fields.length);
  const storage = garageName ?? 'your storage location';

  const onSubmit = handleSubmit((body) => complete.mutate(body, { onSuccess: onDone }));
  const formMessage = hasMissingRequiredField(errors.units)
    ? REQUIRED_FIELDS_MESSAGE
    : (errors.units?.root?.message ?? errors.units?.message);

  return (
    <StepCard
      title="Your properties"
      intro={`Add the rental properties you manage. Each one is restocked from ${garageName ?? 'your storage location'}.`}
    >
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <FormAlert message={formMessage} />
        {fields.map((field, index) => {
          const rowErrors = errors.units?.[index];
          const id = `units-${index}`;
          return (
            <fieldset key={field.id} className="flex flex-col gap-3 rounded-xl border border-slate-200 p-4">
              <RowHeader title={`Property ${index + 1}`} onRemove={() => remove(index)} canRemove={fields.length > 1} />
              <TextField
                id={`${id}-name`}
                label="Property Name"
                maxLength={MAX_TEXT_LENGTH}
                invalid={Boolean(rowErrors?.name)}
                error={ownMessage(rowErrors?.name)}
                {...register(`units.${index}.name`)}
              />
              <AddressField
                id={`${id}-address`}
                invalid={Boolean(rowErrors?.address)}
                error={ownMessage(rowErrors?.address)}
                {...register(`units.${index}.address`)}
              />
            </fieldset>
          );
        })}
        <Button variant="secondary" onClick={() => append({ ...emptyUnit })} className="self-start">
          <Plus className="size-5" aria-hidden="true" />
          Add Property
        </Button>
        <div className="flex flex-col gap-3 rounded-xl border border-slate-200 p-4">
          <label className="flex min-h-11 items-start gap-3 text-base font-medium text-slate-900">
            <input type="checkbox" className="mt-1 size-5 shrink-0 accent-blue-700" aria-describedby="fill-to-minimum-hint" {...register('fill_to_minimum')} />
            Fill all properties to their minimum from storage
          </label>
          <p id="fill-to-minimum-hint" className="text-sm text-slate-600">
            Each property starts with every item at its minimum threshold, moved from {storage} as far as it holds.
          </p>
          {fill && needs.length > 0 && (
            <ul className="flex flex-col gap-1 text-sm text-slate-700" aria-label="What filling takes from storage">
              {needs.map((n) => (
                <li key={n.item_id}>
                  {n.item_name}: {n.wanted} needed, {n.held} in storage
                  {n.missing > 0 && <span className="font-medium text-amber-800"> — {n.missing} short</span>}
                </li>
              ))}
            </ul>
          )}
          {fill && needs.length === 0 && <p className="text-sm text-slate-600">No item has a minimum threshold above 0, so nothing will be moved.</p>}
        </div>
        <StepActions isLast isBusy={complete.isPending} backTo="/onboarding/garage" />
      </form>
    </StepCard>
  );
}
