/** Onboarding step 4, Properties: the units with name and address; saving completes setup. */
import { useFieldArray, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Plus } from 'lucide-react';
import { MAX_TEXT_LENGTH } from '../../../../common/contracts/fields';
import type { UnitsStepBody } from '../../../../common/contracts/onboarding';
import { Button } from '../../../components/ui/Button';
import { FormAlert } from '../../../components/ui/FormAlert';
import { AddressField } from '../../../components/ui/AddressField';
import { TextField } from '../../../components/ui/TextField';
import { useCompleteSetup } from '../api/complete-setup';
import { RowHeader } from '../components/RowHeader';
import { StepActions } from '../components/StepActions';
import { StepCard } from '../components/StepCard';
import { emptyUnit, hasMissingRequiredField, ownMessage, REQUIRED_FIELDS_MESSAGE, unitsDraft, unitsForm, type UnitsDraft } from '../forms';
import { useDraftAutosave } from '../use-draft-autosave';

interface UnitsStepProps {
  draft: UnitsDraft;
  onDraftChange: (draft: UnitsDraft) => void;
  /** Name of the storage location saved in the previous step, when this device knows it. */
  garageName: string | undefined;
  onDone: () => void;
}

/** The properties step. */
export function UnitsStep({ draft, onDraftChange, garageName, onDone }: UnitsStepProps) {
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
        <StepActions isLast isBusy={complete.isPending} />
      </form>
    </StepCard>
  );
}
