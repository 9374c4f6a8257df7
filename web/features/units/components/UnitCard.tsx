/**
 * One unit on the units list (docs/product.md "Screens: Units"): its name (a link to its page),
 * address, garage (a link to the garages), a short account of its stock — how many items are
 * critical and low, and the few that need stock most — a delete icon, 'Quick Scan Items' and
 * 'View Details'. The whole stock list is on the unit's page, one tap away, so that the list of
 * units stays short on a phone.
 */
import { useId } from 'react';
import { Link } from 'react-router';
import { MapPin, ScanLine, Trash2, Warehouse } from 'lucide-react';
import type { Unit } from '../../../../common/contracts/stock';
import { Button, buttonClasses } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { IconButton } from '../../../components/ui/IconButton';
import { summarizeUnitStock } from '../unit-summary';
import { QuantityBadge } from './StockStatus';
import { usePermission } from '../../../lib/use-permission';

interface UnitCardProps {
  unit: Unit;
  onDelete: (unit: Unit) => void;
  onScan: (unit: Unit) => void;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** The counts of rows in alert, or that all are stocked. */
function StockCounts({ total, critical, low }: { total: number; critical: number; low: number }) {
  if (critical === 0 && low === 0) {
    return <p className="text-base text-green-800">{`All ${plural(total, 'item')} stocked`}</p>;
  }
  return (
    <p className="flex flex-wrap gap-x-3 text-base" data-testid="unit-stock-counts">
      {critical > 0 && <span className="font-semibold text-red-700">{`${critical} critical`}</span>}
      {low > 0 && <span className="font-semibold text-amber-800">{`${low} low`}</span>}
      <span className="text-slate-600">{`of ${plural(total, 'item')}`}</span>
    </p>
  );
}

/** Renders the card. */
export function UnitCard({ unit, onDelete, onScan }: UnitCardProps) {
  const canManage = usePermission('properties').allowed;
  const headingId = useId();
  const summary = summarizeUnitStock(unit.inventory);
  return (
    <Card aria-labelledby={headingId} className="flex flex-col gap-3 p-4 sm:p-5" data-testid="unit-card">
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 id={headingId} className="text-lg font-semibold break-words text-slate-900">
            <Link to={`/unit/${unit.id}`} className="flex min-h-11 items-center text-blue-700 hover:underline">
              {unit.name}
            </Link>
          </h2>
          <p className="mt-1 flex items-start gap-1.5 text-base text-slate-600">
            <MapPin className="mt-1 size-4 shrink-0" aria-hidden="true" />
            <span className="break-words">{unit.address}</span>
          </p>
          <p className="mt-1 flex items-start gap-1.5 text-base text-slate-600">
            <Warehouse className="mt-1 size-4 shrink-0" aria-hidden="true" />
            {unit.garage ? (
              <Link to="/garages" className="-my-2.5 inline-flex min-h-11 items-center break-words text-blue-700 hover:underline">
                {unit.garage.name}
              </Link>
            ) : (
              <span>No garage assigned</span>
            )}
          </p>
        </div>
        {canManage && <IconButton icon={Trash2} label={`Delete ${unit.name}`} tone="danger" onClick={() => onDelete(unit)} />}
      </div>

      <div className="flex flex-col gap-1 border-t border-slate-100 pt-2">
        {summary.total === 0 ? (
          <p className="py-1 text-base text-slate-500">No inventory items added yet</p>
        ) : (
          <>
            <StockCounts {...summary} />
            {summary.worst.length > 0 && (
              <ul className="divide-y divide-slate-100" aria-label={`Needs stock most in ${unit.name}`}>
                {summary.worst.map((row) => (
                  <li key={row.item_id} className="flex items-center justify-between gap-3 py-1.5">
                    <span className="min-w-0 text-base break-words text-slate-800">{row.item_name}</span>
                    <span className="flex shrink-0 items-center gap-1">
                      <span className="sr-only">{`${row.status}:`}</span>
                      <QuantityBadge quantity={row.quantity} status={row.status} className="text-sm" />
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>

      {/* Side by side while they fit on one line each, otherwise stacked. */}
      <div className="mt-auto flex flex-wrap gap-2 pt-1">
        <Button variant="secondary" onClick={() => onScan(unit)} className="flex-auto px-3 whitespace-nowrap">
          <ScanLine className="size-5 shrink-0" aria-hidden="true" />
          Quick Scan Items
        </Button>
        <Link to={`/unit/${unit.id}`} className={buttonClasses('primary', 'flex-auto px-3 whitespace-nowrap')}>
          View Details
        </Link>
      </div>
    </Card>
  );
}
