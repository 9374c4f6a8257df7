/**
 * One unit on the units list (docs/product.md "Screens: Units"): name, address, garage, its stock with quantity
 * badges, a delete icon, 'Quick Scan Items' and 'View Details'.
 */
import { useId } from 'react';
import { Link } from 'react-router';
import { MapPin, ScanLine, Trash2, Warehouse } from 'lucide-react';
import type { Unit } from '../../../../common/contracts/stock';
import { Button, buttonClasses } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { IconButton } from '../../../components/ui/IconButton';
import { QuantityBadge } from './StockStatus';

interface UnitCardProps {
  unit: Unit;
  onDelete: (unit: Unit) => void;
  onScan: (unit: Unit) => void;
}

/** Renders the card. */
export function UnitCard({ unit, onDelete, onScan }: UnitCardProps) {
  const headingId = useId();
  return (
    <Card aria-labelledby={headingId} className="flex flex-col gap-3 p-4 sm:p-5" data-testid="unit-card">
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 id={headingId} className="text-lg font-semibold break-words text-slate-900">
            {unit.name}
          </h2>
          <p className="mt-1 flex items-start gap-1.5 text-base text-slate-600">
            <MapPin className="mt-1 size-4 shrink-0" aria-hidden="true" />
            <span className="break-words">{unit.address}</span>
          </p>
          <p className="mt-1 flex items-start gap-1.5 text-base text-slate-600">
            <Warehouse className="mt-1 size-4 shrink-0" aria-hidden="true" />
            <span className="break-words">{unit.garage ? unit.garage.name : 'No garage assigned'}</span>
          </p>
        </div>
        <IconButton icon={Trash2} label={`Delete ${unit.name}`} tone="danger" onClick={() => onDelete(unit)} />
      </div>

      <div className="border-t border-slate-100 pt-2">
        {unit.inventory.length === 0 ? (
          <p className="py-1 text-base text-slate-500">No inventory items added yet</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {unit.inventory.map((row) => (
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
