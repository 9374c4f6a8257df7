/**
 * One stock alert: '{item} is {alert type} in {location}' with its time; critical red, low yellow.
 * Tapping it opens the place to restock it (use-open-alert.ts).
 */
import { ChevronRight, CircleAlert, TriangleAlert } from 'lucide-react';
import type { DashboardAlert } from '../../../../common/contracts/dashboard';
import { Spinner } from '../../../components/ui/Spinner';
import { formatDateTime } from '../../../lib/format';

interface AlertEntryProps {
  alert: DashboardAlert;
  isOpening: boolean;
  onTouch: () => void;
  onOpen: () => void;
}

/** Renders the alert as a button that opens it. */
export function AlertEntry({ alert, isOpening, onTouch, onOpen }: AlertEntryProps) {
  const critical = alert.alert_type === 'critical';
  const Icon = critical ? CircleAlert : TriangleAlert;
  return (
    <button
      type="button"
      onPointerDown={onTouch}
      onFocus={onTouch}
      onClick={onOpen}
      aria-busy={isOpening || undefined}
      className={`flex w-full items-start gap-3 rounded-lg border px-3 py-2 text-left focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 ${
        critical ? 'border-red-200 bg-red-50 text-red-800 hover:bg-red-100' : 'border-yellow-200 bg-yellow-50 text-yellow-800 hover:bg-yellow-100'
      }`}
      data-alert-type={alert.alert_type}
    >
      <Icon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
      <span className="min-w-0 flex-1">
        <span className="block text-base font-medium break-words">{`${alert.item_name} is ${alert.alert_type} in ${alert.location_name}`}</span>
        {/* Full strength: dimmed, the low alert's yellow fell below 4.5:1 against its background. */}
        <span className="block text-sm">
          <time dateTime={alert.created_at}>{formatDateTime(alert.created_at)}</time>
        </span>
      </span>
      {isOpening ? <Spinner className="mt-0.5 size-5 shrink-0" /> : <ChevronRight className="mt-0.5 size-5 shrink-0" aria-hidden="true" />}
    </button>
  );
}
