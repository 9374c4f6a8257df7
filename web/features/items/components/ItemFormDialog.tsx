/**
 * The Add Item and Edit Item modals (docs/product.md "Screens: Items"): name, count cost, category,
 * minimum threshold, the usage per stay the forecast uses while the ledger holds no usage of the
 * item, and the item's own service level (the company's unless chosen).
 */
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { MAX_TEXT_LENGTH } from '../../../../common/contracts/fields';
import { SERVICE_LEVELS } from '../../../../common/contracts/forecast';
import type { Item, ItemBody } from '../../../../common/contracts/stock';
import { Button } from '../../../components/ui/Button';
import { Dialog, DialogActions } from '../../../components/ui/Dialog';
import { FormAlert } from '../../../components/ui/FormAlert';
import { SelectField } from '../../../components/ui/SelectField';
import { TextField } from '../../../components/ui/TextField';
import { errorMessages } from '../../../lib/form-errors';
import { useCreateItem } from '../api/create-item';
import { useUpdateItem } from '../api/update-item';
import { draftFromItem, emptyItemDraft, itemForm, type ItemDraft } from '../item-form';

interface ItemFormProps {
  /** The item being edited; absent for Add Item. */
  item?: Item;
  onClose: () => void;
}

function ItemForm({ item, onClose }: ItemFormProps) {
  const id = useId();
  const create = useCreateItem();
  const update = useUpdateItem();
  const saving = create.isPending || update.isPending;
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<ItemDraft, unknown, ItemBody>({
    resolver: zodResolver(itemForm),
    defaultValues: item ? draftFromItem(item) : emptyItemDraft,
  });

  const onSubmit = handleSubmit((body) => {
    if (item) update.mutate({ id: item.id, body }, { onSuccess: onClose });
    else create.mutate(body, { onSuccess: onClose });
  });
  const onCancel = () => {
    reset(item ? draftFromItem(item) : emptyItemDraft);
    onClose();
  };

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      {errorMessages(errors, ['name', 'category']).map((message) => (
        <FormAlert key={message} message={message} />
      ))}
      <TextField
        id={`${id}-name`}
        label="Item Name"
        placeholder="Enter item name"
        maxLength={MAX_TEXT_LENGTH}
        invalid={Boolean(errors.name)}
        {...register('name')}
      />
      <TextField
        id={`${id}-count-cost`}
        label="Count Cost ($)"
        type="number"
        inputMode="decimal"
        min={0}
        step={0.01}
        placeholder="Enter count cost"
        error={errors.count_cost?.message}
        {...register('count_cost')}
      />
      <TextField
        id={`${id}-category`}
        label="Category"
        placeholder="Enter category"
        maxLength={MAX_TEXT_LENGTH}
        invalid={Boolean(errors.category)}
        {...register('category')}
      />
      <TextField
        id={`${id}-minimum-threshold`}
        label="Minimum Threshold"
        type="number"
        inputMode="numeric"
        min={0}
        step={1}
        placeholder="Enter minimum threshold"
        error={errors.minimum_threshold?.message}
        {...register('minimum_threshold')}
      />
      <div className="flex flex-col gap-1">
        <TextField
          id={`${id}-usage-per-stay`}
          label="Usage per stay (default)"
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          placeholder="Optional, e.g. 2"
          aria-describedby={`${id}-usage-per-stay-hint`}
          error={errors.usage_per_stay_default?.message}
          {...register('usage_per_stay_default')}
        />
        <p id={`${id}-usage-per-stay-hint`} className="text-sm text-slate-600">
          Pieces one stay uses. The forecast uses it until your properties have a history of this item.
        </p>
      </div>
      <div className="flex flex-col gap-1">
        <SelectField
          id={`${id}-service-level`}
          label="Service level"
          aria-describedby={`${id}-service-level-hint`}
          error={errors.service_level?.message}
          {...register('service_level')}
        >
          <option value="">{"The company's"}</option>
          {SERVICE_LEVELS.map((level) => (
            <option key={level} value={String(level)}>{`${level} %`}</option>
          ))}
        </SelectField>
        <p id={`${id}-service-level-hint`} className="text-sm text-slate-600">
          The least chance pick lists give this item of never running short. Choose a higher one than the company&apos;s for an item that must never be missing.
        </p>
      </div>
      <DialogActions>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" isBusy={saving}>
          {saving ? 'Saving...' : item ? 'Save' : 'Add'}
        </Button>
      </DialogActions>
    </form>
  );
}

interface ItemFormDialogProps {
  open: boolean;
  item?: Item;
  onClose: () => void;
}

/** Add Item when `item` is absent, Edit Item otherwise; closes after a successful save. */
export function ItemFormDialog({ open, item, onClose }: ItemFormDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} title={item ? 'Edit Item' : 'Add Item'}>
      {/* Keyed by item, so switching from one item's edit to another's starts from its values. */}
      <ItemForm key={item?.id ?? 'new'} item={item} onClose={onClose} />
    </Dialog>
  );
}
