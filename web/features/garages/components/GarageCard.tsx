/**
 * One garage (docs/product.md "Screens: Garages"): name and address with inline edit and delete, and its stock
 * — a summary (items, low, out) that opens every row on a tap — with Count, which opens count mode (/garages/:id/count), and Pick list, what to take out tomorrow
 * (/garages/:id/pick-list, docs/product.md "Screens: Pick list").
 */
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { ChevronDown, ClipboardCheck, ClipboardList, MapPin, Pencil, Trash2 } from 'lucide-react';
import type { Garage } from '../../../../common/contracts/stock';
import { buttonClasses } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { IconButton } from '../../../components/ui/IconButton';
import { GarageDetailsForm } from './GarageDetailsForm';
import { useItems } from '../../../lib/queries/get-items';
import { usePermission } from '../../../lib/use-permission';
import { garageSummary, itemsText } from '../garage-summary';

type Mode = 'view' | 'details';

interface GarageCardProps {
  garage: Garage;
  onDelete: (garage: Garage) => void;
}

function StockList({ garage }: { garage: Garage }) {
  return (
    <ul className="divide-y divide-slate-100">
      {garage.inventory.map((row) => (
        <li key={row.item_id} className="flex items-center justify-between gap-3 py-2">
          <span className="min-w-0 text-base break-words text-slate-800">{row.item_name}</span>
          <span className="shrink-0 rounded-full bg-slate-100 px-3 py-0.5 text-base font-semibold text-slate-800 tabular-nums">{row.quantity}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * The garage's stock behind a tap: the summary line ('31 items · 4 low · 2 out') opens every row.
 * The list of every item of every garage made the Garages screen 3,527 px long on a phone.
 */
function Stock({ garage }: { garage: Garage }) {
  const items = useItems();
  if (garage.inventory.length === 0) return <p className="py-2 text-base text-slate-500">No inventory available</p>;
  const summary = garageSummary(garage, items.data);
  return (
    <details className="group">
      <summary className="flex min-h-11 cursor-pointer list-none items-center gap-2 text-base [&::-webkit-details-marker]:hidden" data-testid="garage-summary">
        <span className="min-w-0 flex-1">
          <span className="font-semibold text-slate-800">{itemsText(garage.inventory.length)}</span>
          {summary && summary.low > 0 && <span className="font-medium text-amber-800">{` · ${summary.low} low`}</span>}
          {summary && summary.out > 0 && <span className="font-medium text-red-700">{` · ${summary.out} out`}</span>}
        </span>
        <span className="shrink-0 text-blue-700 group-open:hidden">Show stock</span>
        <span className="hidden shrink-0 text-blue-700 group-open:inline">Hide stock</span>
        <ChevronDown className="size-5 shrink-0 text-blue-700 transition-transform group-open:rotate-180" aria-hidden="true" />
      </summary>
      <StockList garage={garage} />
    </details>
  );
}

/** Renders the card. */
export function GarageCard({ garage, onDelete }: GarageCardProps) {
  const canManage = usePermission('storage').allowed;
  const [mode, setMode] = useState<Mode>('view');
  const headingId = useId();
  const backToView = () => setMode('view');

  return (
    <Card aria-labelledby={headingId} className="flex flex-col gap-4 p-4 sm:p-5" data-testid="garage-card">
      {mode === 'details' ? (
        <>
          <h2 id={headingId} className="sr-only">
            {garage.name}
          </h2>
          <GarageDetailsForm garage={garage} onDone={backToView} />
        </>
      ) : (
        <div className="flex items-start justify-between gap-2">
          <div className="min-w-0">
            <h2 id={headingId} className="text-lg font-semibold break-words text-slate-900">
              {garage.name}
            </h2>
            <p className="mt-1 flex items-start gap-1.5 text-base text-slate-600">
              <MapPin className="mt-1 size-4 shrink-0" aria-hidden="true" />
              <span className="break-words">{garage.address}</span>
            </p>
          </div>
          <div className="flex shrink-0">
            {canManage && <IconButton icon={Pencil} label={`Edit ${garage.name}`} tone="primary" onClick={() => setMode('details')} />}
            {canManage && <IconButton icon={Trash2} label={`Delete ${garage.name}`} tone="danger" onClick={() => onDelete(garage)} />}
          </div>
        </div>
      )}

      <div className="flex flex-col gap-2 border-t border-slate-100 pt-3">
        <div className="flex items-center justify-between gap-2">
          <h3 className="text-base font-semibold text-slate-700">Inventory</h3>
          <div className="flex flex-wrap justify-end gap-2">
            <Link to={`/garages/${encodeURIComponent(garage.id)}/pick-list?from=garages`} className={buttonClasses('secondary')}>
              <ClipboardCheck className="size-5" aria-hidden="true" />
              Pick list
              <span className="sr-only">{` of ${garage.name}`}</span>
            </Link>
            <Link to={`/garages/${encodeURIComponent(garage.id)}/count`} className={buttonClasses('secondary')}>
              <ClipboardList className="size-5" aria-hidden="true" />
              Count
              <span className="sr-only">{` ${garage.name}`}</span>
            </Link>
          </div>
        </div>
        <Stock garage={garage} />
      </div>
    </Card>
  );
}
