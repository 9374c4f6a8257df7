/**
 * An endpoint's delivery log (docs/product.md "Screens: Webhooks"): its last deliveries, newest
 * first, each with its event, time, status line, duration, attempts, the next attempt's time while
 * pending, the last error, and Resend.
 */
import { RotateCw } from 'lucide-react';
import { WEBHOOK_DELIVERY_LOG_SIZE, type WebhookDelivery, type WebhookDeliveryStatus } from '../../../../common/contracts/webhooks';
import { Button } from '../../../components/ui/Button';
import { LoadError } from '../../../components/ui/LoadError';
import { Spinner } from '../../../components/ui/Spinner';
import { formatDateTime } from '../../../lib/format';
import { useResendDelivery, useWebhookDeliveries } from '../api/deliveries';
import { attemptsText, deliveryStatusText, durationText, eventTypeName } from '../webhook-text';

const statusClasses: Record<WebhookDeliveryStatus, string> = {
  succeeded: 'bg-green-50 text-green-800',
  failed: 'bg-red-50 text-red-800',
  pending: 'bg-amber-50 text-amber-900',
};

function DeliveryRow({ delivery, disabled, onResend }: { delivery: WebhookDelivery; disabled: boolean; onResend: () => void }) {
  const name = eventTypeName(delivery.event_type);
  const when = formatDateTime(delivery.created_at);
  const facts = [durationText(delivery.last_duration_ms), attemptsText(delivery.attempts)].filter(Boolean).join(' · ');
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start sm:justify-between sm:gap-4" data-testid="webhook-delivery">
      <div className="flex min-w-0 flex-col gap-1">
        <p className="font-medium break-words text-slate-900">{name}</p>
        <p className="text-sm text-slate-600">{when}</p>
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-700">
          <span className={`rounded-full px-2 py-0.5 font-medium ${statusClasses[delivery.status]}`}>{deliveryStatusText(delivery)}</span>
          <span>{facts}</span>
        </p>
        {delivery.status === 'pending' && delivery.next_attempt_at && (
          <p className="text-sm text-slate-700">Next attempt {formatDateTime(delivery.next_attempt_at)}</p>
        )}
        {delivery.last_error && <p className="text-sm break-words text-red-700">{delivery.last_error}</p>}
      </div>
      <Button variant="secondary" onClick={onResend} disabled={disabled} className="shrink-0 self-start" aria-label={`Resend ${name} of ${when}`}>
        <RotateCw className="size-4" aria-hidden="true" />
        Resend
      </Button>
    </li>
  );
}

/**
 * The log of the endpoint `endpointId`, with Resend while `canResend` (the endpoint is enabled);
 * loading, failing with Try again, or empty, it says so.
 */
export function DeliveryLog({ endpointId, canResend }: { endpointId: string; canResend: boolean }) {
  const log = useWebhookDeliveries(endpointId);
  const resend = useResendDelivery(endpointId);
  if (log.isPending) {
    return (
      <p className="flex items-center gap-2 py-3 text-slate-600">
        <Spinner label="Loading the delivery log" /> Loading the delivery log...
      </p>
    );
  }
  if (log.isError) return <LoadError onRetry={() => void log.refetch()} />;
  const { deliveries } = log.data;
  if (deliveries.length === 0) {
    return (
      <div className="py-3">
        <p className="text-base text-slate-700">No deliveries yet</p>
        <p className="text-sm text-slate-600">Each event sent to this endpoint shows here, with its answer. Send a test event to try it.</p>
      </div>
    );
  }
  return (
    <>
      <p className="pt-3 text-sm text-slate-600">The last {WEBHOOK_DELIVERY_LOG_SIZE} deliveries at most, newest first.</p>
      <ul className="divide-y divide-slate-200">
        {deliveries.map((delivery) => (
          <DeliveryRow key={delivery.id} delivery={delivery} disabled={!canResend || resend.isPending} onResend={() => resend.mutate(delivery)} />
        ))}
      </ul>
    </>
  );
}
