/**
 * /garages/:garageId/count and /unit/:unitId/count: count mode (stocktake) of a garage or a unit
 * (docs/product.md "Screens: Count"), behind the expired-trial gate. Each route loads the place's
 * stock, the company's items and the company (the draft's key), then shows the count screen;
 * offline, from the data kept on the device, with 'Offline — as of {time}' of the place's stock
 * (docs/decisions/048-offline-reads.md).
 */
import { Link, useParams } from 'react-router';
import type { UseQueryResult } from '@tanstack/react-query';
import { SubscriptionGate } from '../../components/SubscriptionGate';
import { NotOpenedOffline, OfflineNote } from '../../components/OfflineNote';
import { buttonClasses } from '../../components/ui/Button';
import { LoadError } from '../../components/ui/LoadError';
import { PageSpinner } from '../../components/ui/PageSpinner';
import { hasErrorCode } from '../../lib/api-error';
import { useOnline } from '../../lib/offline-status';
import { useGarages } from '../../lib/queries/get-garages';
import { useItems } from '../../lib/queries/get-items';
import { useMe } from '../../lib/queries/get-me';
import { useUnit } from '../../lib/queries/get-unit';
import { CountScreen, type PlaceStock } from './components/CountScreen';
import type { CountPlace } from './count-draft';

interface Loaded {
  name: string;
  stock: PlaceStock[];
}

interface CountLoaderProps {
  place: CountPlace;
  /** The place's query, read as name and stock; null data when the place does not exist. */
  placeQuery: UseQueryResult<unknown>;
  loaded: Loaded | null | undefined;
  backTo: { path: string; label: string };
  reload: () => Promise<PlaceStock[] | undefined>;
}

function NotFound({ backTo }: { backTo: { path: string; label: string } }) {
  return (
    <div className="flex flex-col items-center gap-4 rounded-xl border border-slate-200 bg-white px-6 py-12 text-center">
      <h1 className="text-xl font-semibold text-slate-900">Nothing to count here</h1>
      <p className="text-base text-slate-600">This place may have been deleted.</p>
      <Link to={backTo.path} className={buttonClasses('primary')}>
        {backTo.label}
      </Link>
    </div>
  );
}

/** Waits for the place, the items and the company; then the screen, keyed by place so another one starts afresh. */
function CountLoader({ place, placeQuery, loaded, backTo, reload }: CountLoaderProps) {
  const items = useItems();
  const me = useMe();
  const online = useOnline();
  const queries: UseQueryResult<unknown>[] = [placeQuery, items, me];
  if (loaded === null || hasErrorCode(placeQuery.error, 'NOT_FOUND')) return <NotFound backTo={backTo} />;
  if (!loaded || !items.data || !me.data?.tenant) {
    if (!online) return <NotOpenedOffline />;
    return queries.some((q) => q.isError) ? <LoadError onRetry={() => queries.forEach((q) => q.isError && void q.refetch())} /> : <PageSpinner />;
  }
  return (
    <>
      <div className="mx-auto max-w-3xl">
        <OfflineNote updatedAt={placeQuery.dataUpdatedAt} className="mb-4" />
      </div>
      <CountScreen
        key={`${place.kind}.${place.id}`}
        tenantId={me.data.tenant.id}
        place={place}
        placeName={loaded.name}
        backTo={backTo}
        stock={loaded.stock}
        items={items.data}
        reload={reload}
      />
    </>
  );
}

const gateMessage = 'Your trial has expired. Please subscribe to continue counting stock.';

function GarageCount({ garageId }: { garageId: string }) {
  const garages = useGarages();
  const find = (list: typeof garages.data) => list?.find((g) => g.id === garageId);
  const found = find(garages.data);
  const loaded = garages.data ? (found ? { name: found.name, stock: found.inventory } : null) : undefined;
  return (
    <CountLoader
      place={{ kind: 'garage', id: garageId }}
      placeQuery={garages}
      loaded={loaded}
      backTo={{ path: '/garages', label: 'Back to Garages' }}
      reload={async () => find((await garages.refetch()).data)?.inventory}
    />
  );
}

function UnitCount({ unitId }: { unitId: string }) {
  const unit = useUnit(unitId);
  const loaded = unit.data ? { name: unit.data.name, stock: unit.data.inventory } : undefined;
  return (
    <CountLoader
      place={{ kind: 'unit', id: unitId }}
      placeQuery={unit}
      loaded={loaded}
      backTo={{ path: `/unit/${unitId}`, label: `Back to ${unit.data?.name ?? 'the unit'}` }}
      reload={async () => (await unit.refetch()).data?.inventory}
    />
  );
}

/** Count mode of the garage in the path. */
export function GarageCountRoute() {
  const { garageId = '' } = useParams();
  return (
    <SubscriptionGate message={gateMessage}>
      <GarageCount garageId={garageId} />
    </SubscriptionGate>
  );
}

/** Count mode of the unit in the path. */
export function UnitCountRoute() {
  const { unitId = '' } = useParams();
  return (
    <SubscriptionGate message={gateMessage}>
      <UnitCount unitId={unitId} />
    </SubscriptionGate>
  );
}
