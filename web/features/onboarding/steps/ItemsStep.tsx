/** Onboarding step 2, Items: the supply items with category, minimum threshold and count cost. */
import { useFieldArray, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Plus } from 'lucide-react';
import { MAX_TEXT_LENGTH } from '../../../../common/contracts/fields';
import type { ItemsStepBody } from '../../../../common/contracts/onboarding';
import { Button } from '../../../components/ui/Button';
import { FormAlert } from '../../../components/ui/FormAlert';
import { TextField } from '../../../components/ui/TextField';
import { useSaveItems } from '../api/save-items';
import { RowHeader } from '../components/RowHeader';
import { StepActions } from '../components/StepActions';
import { StepCard } from '../components/StepCard';
import {
  emptyItem,
  hasMissingRequiredField,
  itemsDraft,
  itemsForm,
  ownMessage,
  REQUIRED_FIELDS_MESSAGE,
  type ItemsDraft,
} from '../forms';
import { useDraftAutosave } from '../use-draft-autosave';

interface ItemsStepProps {
  draft: ItemsDraft;
  onDraftChange: (draft: ItemsDraft) => void;
  onDone: (saved: ItemsStepBody) => void;
}

/** The items step. */
export function ItemsStep({ draft, onDraftChange, onDone }: ItemsStepProps) {
  const save = useSaveItems();
  const {
    register,
    control,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<ItemsDraft, unknown, ItemsStepBody>({ resolver: zodResolver(itemsForm), defaultValues: draft });
  const { fields, append, remove } = useFieldArray({ control, name: 'items' });
  useDraftAutosave(watch, itemsDraft, onDraftChange);

  const onSubmit = handleSubmit((body) => save.mutate(body, { onSuccess: () => onDone(body) }));

  return (
    <StepCard title="Inventory items" intro="Add the supply items you keep in stock, such as towels or soap.">
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <FormAlert message={hasMissingRequiredField(errors.items) ? REQUIRED_FIELDS_MESSAGE : (errors.items?.root?.message ?? errors.items?.message)} />
        {fields.length === 0 && <p className="text-base text-slate-600">No items added.</p>}
        {fields.map((field, index) => {
          const rowErrors = errors.items?.[index];
          const id = `items-${index}`;
          return (
            <fieldset key={field.id} className="flex flex-col gap-3 rounded-xl border border-slate-200 p-4">
              <RowHeader title={`Item ${index + 1}`} onRemove={() => remove(index)} canRemove />
              <TextField
                id={`${id}-name`}
                label="Item Name"
                maxLength={MAX_TEXT_LENGTH}
                invalid={Boolean(rowErrors?.name)}
                error={ownMessage(rowErrors?.name)}
                {...register(`items.${index}.name`)}
              />
              <TextField
                id={`${id}-category`}
                label="Category"
                maxLength={MAX_TEXT_LENGTH}
                invalid={Boolean(rowErrors?.category)}
                error={ownMessage(rowErrors?.category)}
                {...register(`items.${index}.category`)}
              />
              <div className="grid grid-cols-2 gap-3">
                <TextField
                  id={`${id}-minimum-threshold`}
                  label="Minimum Threshold"
                  type="number"
                  inputMode="numeric"
                  min={0}
                  step={1}
                  error={rowErrors?.minimum_threshold?.message}
                  {...register(`items.${index}.minimum_threshold`)}
                />
                <TextField
                  id={`${id}-count-cost`}
                  label="Count Cost"
                  type="number"
                  inputMode="decimal"
                  min={0}
                  step={0.01}
                  error={rowErrors?.count_cost?.message}
                  {...register(`items.${index}.count_cost`)}
                />
              </div>
            </fieldset>
          );
        })}
        <Button variant="secondary" onClick={() => append({ ...emptyItem })} className="self-start">
          <Plus className="size-5" aria-hidden="true" />
          Add Item
        </Button>
        <StepActions isLast={false} isBusy={save.isPending} />
      </form>
    </StepCard>
  );
}
