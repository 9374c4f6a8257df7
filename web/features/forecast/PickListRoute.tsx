/**
 * /garages/:garageId/pick-list?date= (docs/product.md "Screens: Pick list"): what to take from one
 * garage on one day (tomorrow in the company's time zone unless `?date=` says otherwise), by
 * property in arrival order. Quantities can be changed; 'Mark as delivered' moves a property's
 * lines from the garage as restock transfers, with Undo in its toast. Made for a phone held in
 * one hand, and for paper: Print leaves out the sidebar and the buttons. Offline, the list read
 * earlier with 'Offline — as of {time}' (docs/decisions/048-offline-reads.md).
 */
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import toast from 'react-hot-toast';
import { ArrowLeft, Printer } from 'lucide-react';
import type { PickListAnswer, PickListUnit } from '../../../common/contracts/forecast';
import { garageQuantities, itemNames, lineShortfalls } from '../../../common/pick-list';
import { SubscriptionGate } from '../../components/SubscriptionGate';
import { NotOpenedOffline, OfflineNote } from '../../components/OfflineNote';
import { Button, buttonClasses } from '../../components/ui/Button';
import { FormAlert } from '../../components/ui/FormAlert';
import { LoadError } from '../../components/ui/LoadError';
import { PageSpinner } from '../../components/ui/PageSpinner';
import { actionErrorMessage, ApiError, hasErrorCode } from '../../lib/api-error';
import { formatCalendarDay } from '../../lib/format';
import { useOnline } from '../../lib/offline-status';
import { useDeliverPickList } from './api/deliver-pick-list';
import { isChangeKept } from '../../lib/stock-write';
import { toastKept } from '../../components/kept-change-toast';
import { usePickList } from './api/get-pick-list';
import { DeliverDialog } from './components/DeliverDialog';
import { OrderForecastPanel } from './components/OrderForecastPanel';
import { PickListPropertyCard } from './components/PickListPropertyCard';
import { deliveryLines, leftBehind, planLines } from './pick-list';

type DeliveryLine = { item_id: string; item_name: string; quantity: number };

/** Back where the list was opened from: Garages (`?from=garages`, its card's link) or the Forecast. */
function BackLink({ fromGarages }: { fromGarages: boolean }) {
  return (
    <Link
      to={fromGarages ? '/garages' : '/forecast'}
      className="inline-flex min-h-11 items-center gap-2 text-base font-medium text-blue-700 hover:underline print:hidden"
    >
      <ArrowLeft className="size-5" aria-hidden="true" />
      {fromGarages ? 'Back to Garages' : 'Back to Forecast'}
    </Link>
  );
}

function PickListContent({ answer }: { answer: PickListAnswer }) {
  const deliver = useDeliverPickList();
  /** Quantities typed, by line key; a line not typed shows what the server says to bring. */
  const [typed, setTyped] = useState<ReadonlyMap<string, string>>(new Map());
  /** Properties delivered on this screen, kept as they were: the list read again no longer holds them. */
  const [delivered, setDelivered] = useState<ReadonlyMap<string, { property: PickListUnit; lines: DeliveryLine[] }>>(new Map());
  const [confirming, setConfirming] = useState<{ property: PickListUnit; lines: DeliveryLine[] } | null>(null);
  const [refusal, setRefusal] = useState<string>();

  const open = answer.properties.filter((property) => !delivered.has(property.unit_id));
  const garageQuantity = garageQuantities(answer);
  const nameOf = itemNames(answer);
  const planned = planLines(open, garageQuantity, typed, lineShortfalls(answer));
  const day = formatCalendarDay(answer.date);

  const askDeliver = (property: PickListUnit) => {
    const result = deliveryLines(property, planned, nameOf);
    if ('error' in result) toast.error(result.error);
    else if (result.lines.length === 0) toast.error('Nothing to deliver: every quantity is 0');
    else setConfirming({ property, lines: result.lines });
  };
  const close = () => {
    setConfirming(null);
    setRefusal(undefined);
  };
  const confirm = () => {
    if (!confirming) return;
    const { property, lines } = confirming;
    // Undo makes the property open again, with the list as the server then reads it.
    const onUndone = () =>
      setDelivered((current) => {
        const next = new Map(current);
        next.delete(property.unit_id);
        return next;
      });
    deliver.mutate(
      { unitId: property.unit_id, unitName: property.unit_name, lines, onUndone },
      {
        onSuccess: () => {
          setDelivered((current) => new Map(current).set(property.unit_id, { property, lines }));
          close();
        },
        onError: (error) => {
          if (!isChangeKept(error)) return setRefusal(actionErrorMessage(error, 'Failed to mark as delivered'));
          // Kept on the phone, sent when the network is back: the property shows as delivered.
          toastKept();
          setDelivered((current) => new Map(current).set(property.unit_id, { property, lines }));
          close();
        },
      },
    );
  };

  return (
    <>
      {answer.properties.length === 0 && delivered.size === 0 ? (
        <p className="rounded-xl border border-slate-200 bg-white px-6 py-12 text-center text-base text-slate-600" data-testid="pick-list-empty">
          {`Nothing to take from ${answer.garage_name} on ${day}`}
        </p>
      ) : (
        <div className="flex flex-col gap-4">
          {open.map((property) => (
            <PickListPropertyCard
              key={property.unit_id}
              property={property}
              garageName={answer.garage_name}
              garageQuantity={garageQuantity}
              nameOf={nameOf}
              planned={planned}
              onType={(key, text) => setTyped((current) => new Map(current).set(key, text))}
              onDeliver={() => askDeliver(property)}
            />
          ))}
          {[...delivered.values()].map(({ property, lines }) => (
            <PickListPropertyCard
              key={property.unit_id}
              property={property}
              garageName={answer.garage_name}
              garageQuantity={garageQuantity}
              nameOf={nameOf}
              planned={planned}
              delivered={lines}
              leftBehind={leftBehind(property, lines, nameOf)}
              onType={() => undefined}
              onDeliver={() => undefined}
            />
          ))}
        </div>
      )}
      <DeliverDialog
        delivery={confirming && { unitName: confirming.property.unit_name, lines: confirming.lines }}
        garageName={answer.garage_name}
        isBusy={deliver.isPending}
        refusal={refusal}
        onConfirm={confirm}
        onCancel={close}
      />
    </>
  );
}

function GarageNotFound() {
  return (
    <div className="flex flex-col items-center gap-4 rounded-xl border border-slate-200 bg-white px-6 py-12 text-center">
      <h1 className="text-xl font-semibold text-slate-900">Garage not found</h1>
      <p className="text-base text-slate-600">It may have been deleted.</p>
      <Link to="/garages" className={buttonClasses('primary')}>
        Back to Garages
      </Link>
    </div>
  );
}

function DayField({ value, onChange }: { value: string; onChange: (date: string) => void }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor="pick-list-date" className="text-sm font-medium text-slate-700">
        Day
      </label>
      <input
        id="pick-list-date"
        type="date"
        required
        value={value}
        onChange={(event) => {
          if (event.target.value) onChange(event.target.value);
        }}
        className="min-h-12 rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 focus:outline-2 focus:outline-blue-600"
      />
    </div>
  );
}

function PickListScreen({ garageId }: { garageId: string }) {
  const [params, setParams] = useSearchParams();
  const date = params.get('date') ?? undefined;
  const pickList = usePickList(garageId, date);
  const online = useOnline();
  if (hasErrorCode(pickList.error, 'NOT_FOUND')) return <GarageNotFound />;
  const answer = pickList.data;
  // A day the server refuses (in the past, too far ahead) keeps the field, with the reason, so that another day can be chosen.
  const refused = pickList.error instanceof ApiError && pickList.error.status === 400 ? pickList.error.message : undefined;
  let content;
  if (answer) content = <PickListContent key={answer.date} answer={answer} />;
  else if (!online) content = <NotOpenedOffline />;
  else if (refused) content = <FormAlert message={refused} />;
  else if (pickList.isError) content = <LoadError onRetry={() => void pickList.refetch()} />;
  else content = <PageSpinner />;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-4">
      <div>
        <BackLink fromGarages={params.get('from') === 'garages'} />
      </div>
      <header className="flex flex-col gap-3">
        <div>
          <h1 className="text-2xl font-bold break-words text-slate-900 sm:text-3xl">{answer ? `Pick list: ${answer.garage_name}` : 'Pick list'}</h1>
          {answer && (
            <p className="mt-1 text-base text-slate-600">{`To take out on ${formatCalendarDay(answer.date)}, for the arrivals of the ${answer.horizon_days} days from then`}</p>
          )}
        </div>
        <div className="flex flex-wrap items-end gap-2 print:hidden">
          <DayField value={answer?.date ?? date ?? ''} onChange={(day) =>
              setParams(
                (current) => {
                  current.set('date', day);
                  return current;
                },
                { replace: true },
              )
            } />
          <Button variant="secondary" onClick={() => window.print()} className="min-h-12">
            <Printer className="size-5" aria-hidden="true" />
            Print
          </Button>
        </div>
      </header>
      <OfflineNote updatedAt={pickList.dataUpdatedAt} />
      {/* Keyed by day (above): quantities typed for one day do not carry over to another. */}
      {content}
      <OrderForecastPanel garageId={garageId} />
    </div>
  );
}

/** The Pick list screen behind the expired-trial gate. */
export function PickListRoute() {
  const { garageId = '' } = useParams();
  return (
    <SubscriptionGate message="Your trial has expired. Please subscribe to continue managing garages.">
      <PickListScreen key={garageId} garageId={garageId} />
    </SubscriptionGate>
  );
}
