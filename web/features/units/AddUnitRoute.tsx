/**
 * /add-unit: the add-unit form in a narrow layout (docs/product.md "Screens: Add Unit"): Unit Name, Address,
 * Garage, and inventory rows whose stock status is shown as the quantity is typed.
 */
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from 'react-router';
import { Warehouse } from 'lucide-react';
import { MAX_TEXT_LENGTH } from '../../../common/contracts/fields';
import { stockStatus, type CreateUnitBody, type Garage, type Item } from '../../../common/contracts/stock';
import { skippedRowsMessage, type StockRowDraft } from '../../components/stock-rows/stock-rows';
import { StockRowsEditor } from '../../components/stock-rows/StockRowsEditor';
import { useStockRowsEditor } from '../../components/stock-rows/use-stock-rows-editor';
import { SubscriptionGate } from '../../components/SubscriptionGate';
import { Button, buttonClasses } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { FormAlert } from '../../components/ui/FormAlert';
import { LoadError } from '../../components/ui/LoadError';
import { PageHeader } from '../../components/ui/PageHeader';
import { PageSpinner } from '../../components/ui/PageSpinner';
import { SelectField } from '../../components/ui/SelectField';
import { AddressField } from '../../components/ui/AddressField';
import { TextField } from '../../components/ui/TextField';
import { errorMessages } from '../../lib/form-errors';
import { parseNumber } from '../../lib/number-text';
import { useGarages } from '../../lib/queries/get-garages';
import { useItems } from '../../lib/queries/get-items';
import { useCreateUnit } from './api/create-unit';
import { StatusWord } from './components/StockStatus';
import { addUnitForm, emptyAddUnitDraft, garageOptionLabel, type AddUnitDraft } from './unit-forms';

function NoGarages() {
  return (
    <Card className="flex flex-col items-center gap-4 px-6 py-10 text-center">
      <Warehouse className="size-12 text-slate-400" aria-hidden="true" />
      <p className="text-base text-slate-700">No garages available. Please create a garage first.</p>
      <Link to="/garages" className={buttonClasses('primary')}>
        Create Garage
      </Link>
    </Card>
  );
}

/** The live status of a row: only once an item is picked, from its threshold (docs/product.md "States and transitions"). */
function RowStatus({ row, item }: { row: StockRowDraft; item: Item | undefined }) {
  if (!item) return null;
  return (
    <p className="text-sm text-slate-600">
      {'Status: '}
      <StatusWord status={stockStatus(parseNumber(row.quantity), item.minimum_threshold)} />
    </p>
  );
}

function AddUnitForm({ garages, items }: { garages: Garage[]; items: Item[] }) {
  const id = useId();
  const navigate = useNavigate();
  const create = useCreateUnit();
  const form = useForm<AddUnitDraft, unknown, CreateUnitBody>({ resolver: zodResolver(addUnitForm), defaultValues: emptyAddUnitDraft });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = form;
  const stockRows = useStockRowsEditor(form, id);

  const onSubmit = handleSubmit((body) =>
    create.mutate({ body, skipped: skippedRowsMessage(form.getValues('inventory')) }, { onSuccess: () => void navigate('/units') }),
  );
  const messages = errorMessages(errors, ['name', 'address', 'garage_id']);

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-6">
      <Card className="flex flex-col gap-4 p-4 sm:p-6">
        {messages.map((message) => (
          <FormAlert key={message} message={message} />
        ))}
        <TextField id={`${id}-name`} label="Unit Name" maxLength={MAX_TEXT_LENGTH} invalid={Boolean(errors.name)} {...register('name')} />
        <AddressField
          id={`${id}-address`}
          invalid={Boolean(errors.address)}
          {...register('address')}
        />
        <SelectField id={`${id}-garage`} label="Garage" invalid={Boolean(errors.garage_id)} {...register('garage_id')}>
          <option value="">-- Select a Garage --</option>
          {garages.map((garage) => (
            <option key={garage.id} value={garage.id}>
              {garageOptionLabel(garage)}
            </option>
          ))}
        </SelectField>
      </Card>

      <Card className="flex flex-col gap-3 p-4 sm:p-6">
        <h2 className="text-lg font-semibold text-slate-900">Inventory</h2>
        <StockRowsEditor
          {...stockRows}
          items={items}
          renderRowExtra={(row, item) => <RowStatus row={row} item={item} />}
          emptyText="No items added."
        />
      </Card>

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Link to="/units" className={buttonClasses('secondary')}>
          Cancel
        </Link>
        <Button type="submit" isBusy={create.isPending}>
          {create.isPending ? 'Saving...' : 'Save'}
        </Button>
      </div>
    </form>
  );
}

function AddUnitScreen() {
  const garages = useGarages();
  const items = useItems();

  let content;
  if (garages.data && items.data) {
    content = garages.data.length === 0 ? <NoGarages /> : <AddUnitForm garages={garages.data} items={items.data} />;
  } else if (garages.isError || items.isError) {
    content = (
      <LoadError
        onRetry={() => {
          if (garages.isError) void garages.refetch();
          if (items.isError) void items.refetch();
        }}
      />
    );
  } else {
    content = <PageSpinner />;
  }

  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader title="Add Unit" />
      {content}
    </div>
  );
}

/** The Add Unit screen behind the expired-trial gate. */
export function AddUnitRoute() {
  return (
    <SubscriptionGate message="Your trial has expired. Please subscribe to add more units.">
      <AddUnitScreen />
    </SubscriptionGate>
  );
}
