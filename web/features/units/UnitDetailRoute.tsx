/**
 * /unit/:unitId: one unit (docs/product.md "Screens: Unit detail") — name, address and garage with Edit Unit and
 * Change/Assign Garage; its stock with minus, plus, restock by quantity, fill to minimum and
 * remove (asking first when the row holds stock); Restock to minimum for the whole unit; Add
 * Manually; Count, which opens count mode (/unit/:unitId/count); Scan Items (the AI photo scanner);
 * a search over its items and a "Needs stock" view, the rows needing stock first
 * (stock-needs.ts); the stays of the next 7 days and each item's usage per stay (docs/product.md
 * "Screens: Forecast").
 */
import { useEffect, useState, type ComponentType } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { ArrowLeft, ClipboardList, MapPin, PackageCheck, PackagePlus, Pencil, ScanLine, Warehouse } from 'lucide-react';
import { isBelowMinimum, type Unit, type UnitStockRow as UnitStockRowData } from '../../../common/contracts/stock';
import { SubscriptionGate } from '../../components/SubscriptionGate';
import { NotOpenedOffline, OfflineNote } from '../../components/OfflineNote';
import { ScanDialog } from '../../components/scanner/ScanDialog';
import { Button, buttonClasses } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog';
import { SearchField } from '../../components/ui/SearchField';
import { LoadError } from '../../components/ui/LoadError';
import { PageSpinner } from '../../components/ui/PageSpinner';
import { hasErrorCode } from '../../lib/api-error';
import { useOnline } from '../../lib/offline-status';
import { useGarages } from '../../lib/queries/get-garages';
import { useUnit } from '../../lib/queries/get-unit';
import { useRemoveUnitStock } from './api/remove-unit-stock';
import { useRestockToMinimum } from './api/restock-to-minimum';
import { useUnitForecast } from './api/get-unit-forecast';
import { AddStockDialog } from './components/AddStockDialog';
import { CalendarLinks } from './components/CalendarLinks';
import { EditUnitDialog } from './components/EditUnitDialog';
import { UnitForecastLine } from './components/UnitForecastLine';
import { UnitStockRow } from './components/UnitStockRow';
import { needText, shownRows, stockNeeds } from './stock-needs';
import { perStayByItem } from './unit-forecast';
import { RoleNote } from '../../components/RoleNote';
import { usePermission } from '../../lib/use-permission';

const backLink = (
  <Link to="/units" className="inline-flex min-h-11 items-center gap-2 text-base font-medium text-blue-700 hover:underline">
    <ArrowLeft className="size-5" aria-hidden="true" />
    Back to Units
  </Link>
);

function UnitHeader({ unit, onEdit }: { unit: Unit; onEdit: (focusGarage: boolean) => void }) {
  const manage = usePermission('properties');
  return (
    <Card className="flex flex-col gap-4 p-4 sm:p-6">
      <div>
        <h1 className="text-2xl font-bold break-words text-slate-900 sm:text-3xl">{unit.name}</h1>
        <p className="mt-1 flex items-start gap-1.5 text-base text-slate-600">
          <MapPin className="mt-1 size-4 shrink-0" aria-hidden="true" />
          <span className="break-words">{unit.address}</span>
        </p>
      </div>
      <div className="flex items-start gap-3 rounded-lg bg-slate-50 px-3 py-3" data-testid="unit-garage">
        <Warehouse className="mt-0.5 size-5 shrink-0 text-slate-500" aria-hidden="true" />
        {unit.garage ? (
          <div className="min-w-0">
            <Link to="/garages" className="font-semibold break-words text-blue-700 hover:underline">
              {unit.garage.name}
            </Link>
            <p className="text-sm break-words text-slate-600">{unit.garage.address}</p>
          </div>
        ) : (
          <p className="text-base text-slate-600">No garage assigned</p>
        )}
      </div>
      {manage.allowed ? (
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={() => onEdit(false)} className="flex-auto whitespace-nowrap sm:flex-none">
            <Pencil className="size-5" aria-hidden="true" />
            Edit Unit
          </Button>
          <Button variant="secondary" onClick={() => onEdit(true)} className="flex-auto whitespace-nowrap sm:flex-none">
            <Warehouse className="size-5" aria-hidden="true" />
            {unit.garage ? 'Change Garage' : 'Assign Garage'}
          </Button>
        </div>
      ) : (
        <RoleNote reason={manage.reason} />
      )}
    </Card>
  );
}

/**
 * The item that `?item={itemId}` asks for (a dashboard alert opens the unit there): scrolled into
 * view once the stock has loaded, and marked.
 */
function useAskedItem(unit: Unit): string | null {
  const [params] = useSearchParams();
  const asked = params.get('item');
  const held = asked !== null && unit.inventory.some((row) => row.item_id === asked);
  useEffect(() => {
    if (!held) return;
    document.querySelector(`[data-item-id="${CSS.escape(asked)}"]`)?.scrollIntoView({ block: 'center' });
  }, [asked, held]);
  return held ? asked : null;
}

interface StockFinderProps {
  query: string;
  onQuery: (query: string) => void;
  onlyNeeding: boolean;
  onOnlyNeeding: (onlyNeeding: boolean) => void;
  /** Rows of the unit, and how many of them need stock. */
  total: number;
  needing: number;
}

/** The search over the unit's items and the choice between all items and those needing stock. */
function StockFinder({ query, onQuery, onlyNeeding, onOnlyNeeding, total, needing }: StockFinderProps) {
  const choice = (active: boolean) =>
    `min-h-11 flex-1 rounded-lg px-3 py-2 text-base font-medium ${active ? 'bg-blue-700 text-white' : 'bg-white text-slate-700 hover:bg-slate-100'}`;
  return (
    <div className="flex flex-col gap-2">
      <SearchField label="Find an item" placeholder="Find an item..." value={query} onChange={onQuery} />
      <div className="flex gap-1 rounded-lg border border-slate-200 bg-slate-50 p-1" role="group" aria-label="Items shown">
        <button type="button" aria-pressed={!onlyNeeding} onClick={() => onOnlyNeeding(false)} className={choice(!onlyNeeding)}>
          {`All items (${total})`}
        </button>
        <button type="button" aria-pressed={onlyNeeding} onClick={() => onOnlyNeeding(true)} className={choice(onlyNeeding)}>
          {`Needs stock (${needing})`}
        </button>
      </div>
    </div>
  );
}

function UnitStock({ unit, onAdd, onScan }: { unit: Unit; onAdd: () => void; onScan: () => void }) {
  const askedItem = useAskedItem(unit);
  const remove = useRemoveUnitStock();
  const fill = useRestockToMinimum();
  const garages = useGarages();
  const forecast = useUnitForecast(unit.id);
  const perStay = forecast.data ? perStayByItem(forecast.data) : undefined;
  const needs = stockNeeds(unit.inventory, forecast.data);
  const [query, setQuery] = useState('');
  const [onlyNeeding, setOnlyNeeding] = useState(false);
  // The rows needing stock when the list was last sorted: at opening, when the forecast arrives,
  // and when the search or the view changes — not after each tap, which would move the row away.
  const [sortedBy, setSortedBy] = useState<ReadonlySet<string>>(() => new Set(needs.keys()));
  const [sortedWithForecast, setSortedWithForecast] = useState(forecast.data !== undefined);
  if (sortedWithForecast !== (forecast.data !== undefined)) {
    setSortedWithForecast(forecast.data !== undefined);
    setSortedBy(new Set(needs.keys()));
  }
  const resort = () => setSortedBy(new Set(needs.keys()));
  const rows = shownRows(unit.inventory, sortedBy, query, onlyNeeding);
  /** The row whose removal waits for a confirmation (it holds stock). */
  const [removing, setRemoving] = useState<UnitStockRowData | null>(null);

  const garageStock = new Map(garages.data?.find((garage) => garage.id === unit.garage_id)?.inventory.map((row) => [row.item_id, row.quantity]));
  const removingItem = remove.isPending ? remove.variables.itemId : undefined;
  const anyBelowMinimum = unit.inventory.some((row) => isBelowMinimum(row.quantity, row.minimum_threshold));

  const removeRow = (row: UnitStockRowData) => remove.mutate({ unitId: unit.id, itemId: row.item_id }, { onSettled: () => setRemoving(null) });
  // A row that holds stock asks first: one tap must not count stock out (docs/product.md "Screens: Unit detail").
  const askRemove = (row: UnitStockRowData) => (row.quantity > 0 ? setRemoving(row) : removeRow(row));

  return (
    <Card className="flex flex-col gap-3 p-4 sm:p-6" aria-labelledby="unit-inventory-heading">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <h2 id="unit-inventory-heading" className="text-xl font-semibold text-slate-900">
          Inventory
        </h2>
        <div className="flex flex-wrap gap-2">
          {unit.garage && anyBelowMinimum && (
            <Button
              variant="secondary"
              isBusy={fill.isPending}
              onClick={() => fill.mutate({ unitId: unit.id, label: `Restock to minimum at ${unit.name}` })}
              className="flex-auto whitespace-nowrap sm:flex-none"
            >
              <PackageCheck className="size-5" aria-hidden="true" />
              Restock to minimum
            </Button>
          )}
          <Button onClick={onAdd} className="flex-auto whitespace-nowrap sm:flex-none">
            <PackagePlus className="size-5" aria-hidden="true" />
            Add Manually
          </Button>
          <Link to={`/unit/${encodeURIComponent(unit.id)}/count`} className={buttonClasses('secondary', 'flex-auto whitespace-nowrap sm:flex-none')}>
            <ClipboardList className="size-5" aria-hidden="true" />
            Count
          </Link>
          <Button variant="secondary" onClick={onScan} className="flex-auto whitespace-nowrap sm:flex-none">
            <ScanLine className="size-5" aria-hidden="true" />
            Scan Items
          </Button>
        </div>
      </div>
      {forecast.data && <UnitForecastLine forecast={forecast.data} />}
      {unit.inventory.length === 0 ? (
        <div className="flex flex-col items-center gap-3 py-8 text-center">
          <p className="text-base text-slate-600">No inventory items added yet</p>
          <Button variant="secondary" onClick={onAdd}>
            Add Your First Item
          </Button>
        </div>
      ) : (
        <>
          <StockFinder
            query={query}
            onQuery={(next) => {
              setQuery(next);
              resort();
            }}
            onlyNeeding={onlyNeeding}
            onOnlyNeeding={(next) => {
              setOnlyNeeding(next);
              resort();
            }}
            total={unit.inventory.length}
            needing={needs.size}
          />
          {rows.length === 0 ? (
            <p className="py-6 text-center text-base text-slate-600">
              {query.trim() ? `No item matches “${query.trim()}”` : 'No item needs stock at the moment'}
            </p>
          ) : (
            <ul className="divide-y divide-slate-100">
              {rows.map((row) => {
                const need = needs.get(row.item_id);
                return (
                  <UnitStockRow
                    key={row.item_id}
                    unit={unit}
                    row={row}
                    garageQuantity={unit.garage_id ? (garageStock.get(row.item_id) ?? (garages.data ? 0 : undefined)) : undefined}
                    perStay={perStay?.get(row.item_id)}
                    isRemoving={removingItem === row.item_id}
                    isMarked={askedItem === row.item_id}
                    need={need && needText(need)}
                    onRemove={() => askRemove(row)}
                  />
                );
              })}
            </ul>
          )}
        </>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.item_name ?? ''}`}
        message={
          removing
            ? `${unit.name} holds ${removing.quantity} ${removing.item_name}. Removing the item counts them out of its stock; they do not go back to a garage.`
            : ''
        }
        confirmLabel="Remove"
        isBusy={remove.isPending}
        onConfirm={() => removing && removeRow(removing)}
        onCancel={() => setRemoving(null)}
      />
    </Card>
  );
}

function UnitNotFound() {
  return (
    <div className="flex flex-col gap-4">
      <div>{backLink}</div>
      <div className="flex flex-col items-center gap-4 rounded-xl border border-slate-200 bg-white px-6 py-12 text-center">
        <h1 className="text-xl font-semibold text-slate-900">Unit not found</h1>
        <p className="text-base text-slate-600">It may have been deleted.</p>
        <Link to="/units" className={buttonClasses('primary')}>
          Back to Units
        </Link>
      </div>
    </div>
  );
}

/** A unit's upcoming stays from every source, which the app gives this screen (features never import each other, decision 018). */
export type UpcomingStaysPart = ComponentType<{ unitId: string }>;

function UnitDetailScreen({ unitId, UpcomingStays }: { unitId: string; UpcomingStays: UpcomingStaysPart }) {
  const unit = useUnit(unitId);
  const online = useOnline();
  /** The edit form is open; `garage` when opened to change the garage. */
  const [editing, setEditing] = useState<'closed' | 'unit' | 'garage'>('closed');
  const [adding, setAdding] = useState(false);
  const [scanning, setScanning] = useState(false);

  if (!unit.data) {
    if (hasErrorCode(unit.error, 'NOT_FOUND')) return <UnitNotFound />;
    if (!online) {
      return (
        <div className="flex flex-col gap-4">
          <div>{backLink}</div>
          <NotOpenedOffline />
        </div>
      );
    }
    return unit.isError ? <LoadError onRetry={() => void unit.refetch()} /> : <PageSpinner />;
  }
  return (
    <div className="mx-auto -mt-2 flex max-w-3xl flex-col gap-4">
      <div>{backLink}</div>
      <OfflineNote updatedAt={unit.dataUpdatedAt} />
      <UnitHeader unit={unit.data} onEdit={(focusGarage) => setEditing(focusGarage ? 'garage' : 'unit')} />
      <UnitStock unit={unit.data} onAdd={() => setAdding(true)} onScan={() => setScanning(true)} />
      <UpcomingStays unitId={unit.data.id} />
      <CalendarLinks unitId={unit.data.id} />
      <EditUnitDialog open={editing !== 'closed'} unit={unit.data} focusGarage={editing === 'garage'} onClose={() => setEditing('closed')} />
      <AddStockDialog open={adding} unit={unit.data} onClose={() => setAdding(false)} />
      <ScanDialog unit={scanning ? unit.data : null} onClose={() => setScanning(false)} />
    </div>
  );
}

/** The Unit detail screen behind the expired-trial gate. */
export function UnitDetailRoute({ UpcomingStays }: { UpcomingStays: UpcomingStaysPart }) {
  const { unitId = '' } = useParams();
  return (
    <SubscriptionGate message="Your trial has expired. Please subscribe to continue managing units.">
      {/* Keyed by id: another unit's page starts with its own dialogs closed. */}
      <UnitDetailScreen key={unitId} unitId={unitId} UpcomingStays={UpcomingStays} />
    </SubscriptionGate>
  );
}
