/** One stock alert: '{item} is {alert type} in {location}' with its time; critical red, low yellow. */
import { CircleAlert, TriangleAlert } from 'lucide-react';
import type { DashboardAlert } from '../../../../common/contracts/dashboard';
import { formatDateTime } from '../../../lib/format';

/** Renders the alert. */
export function AlertEntry({ alert }: { alert: DashboardAlert }) {
  const critical = alert.alert_type === 'critical';
  const Icon = critical ? CircleAlert : TriangleAlert;
  return (
    <div
      className={`flex items-start gap-3 rounded-lg border px-3 py-2 ${
        critical ? 'border-red-200 bg-red-50 text-red-800' : 'border-yellow-200 bg-yellow-50 text-yellow-800'
      }`}
      data-alert-type={alert.alert_type}
    >
      <Icon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
      <div className="min-w-0">
        <p className="text-base font-medium break-words">{`${alert.item_name} is ${alert.alert_type} in ${alert.location_name}`}</p>
        <p className="text-sm opacity-80">
          <time dateTime={alert.created_at}>{formatDateTime(alert.created_at)}</time>
        </p>
      </div>
    </div>
  );
}
