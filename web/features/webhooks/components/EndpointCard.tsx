/**
 * One webhook endpoint of the list: its URL, description, events and status ('Enabled', or
 * 'Disabled' with the reason), and its actions: Delivery log (a panel under it), Send test event
 * (a toast with the outcome), Edit, Enable or Disable, and Delete (asked by the screen).
 */
import { useId, useState } from 'react';
import { ChevronDown, ChevronUp, Pencil, Power, PowerOff, Send, Trash2 } from 'lucide-react';
import type { WebhookEndpoint } from '../../../../common/contracts/webhooks';
import { Button } from '../../../components/ui/Button';
import { formatDateTime } from '../../../lib/format';
import { useSendTestEvent, useUpdateWebhookEndpoint } from '../api/webhooks';
import { toastAttempt } from '../attempt-toast';
import { endpointEventNames, endpointStatus } from '../webhook-text';
import { DeliveryLog } from './DeliveryLog';

interface EndpointCardProps {
  endpoint: WebhookEndpoint;
  onEdit: () => void;
  onDelete: () => void;
}

const actionClasses = 'w-full sm:w-auto';

/** Renders the endpoint as a list item. */
export function EndpointCard({ endpoint, onEdit, onDelete }: EndpointCardProps) {
  const panelId = useId();
  const noteId = useId();
  const [logOpen, setLogOpen] = useState(false);
  const update = useUpdateWebhookEndpoint();
  const test = useSendTestEvent();
  const enabled = endpoint.status === 'enabled';
  const events = endpointEventNames(endpoint.events);
  const status = endpointStatus(endpoint);

  const sendTest = () =>
    test.mutate(endpoint, {
      onSuccess: (delivery) => {
        toastAttempt('test', delivery);
        setLogOpen(true);
      },
    });

  return (
    <li className="flex flex-col gap-3 border-b border-slate-200 px-4 py-4 last:border-b-0" data-testid="webhook-endpoint">
      <div className="flex min-w-0 flex-col gap-1">
        <p className="font-medium break-all text-slate-900">{endpoint.url}</p>
        {endpoint.description && <p className="break-words text-slate-700">{endpoint.description}</p>}
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
          <span className={`rounded-full px-2 py-0.5 font-medium ${enabled ? 'bg-green-50 text-green-800' : 'bg-slate-100 text-slate-800'}`}>{status.label}</span>
          {status.reason && (
            <span className="text-slate-700">
              <span className="sr-only">: </span>
              {status.reason}
            </span>
          )}
        </p>
        {enabled && endpoint.failing_since && (
          <p className="text-sm text-amber-900">Deliveries failing since {formatDateTime(endpoint.failing_since)}</p>
        )}
        <div className="text-sm text-slate-700">
          <span className="font-medium">Events: </span>
          {events.join(', ')}
        </div>
      </div>
      <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap">
        <Button variant="secondary" className={`${actionClasses} col-span-2`} aria-expanded={logOpen} aria-controls={panelId} onClick={() => setLogOpen(!logOpen)}>
          {logOpen ? <ChevronUp className="size-5" aria-hidden="true" /> : <ChevronDown className="size-5" aria-hidden="true" />}
          Delivery log
        </Button>
        <Button
          variant="secondary"
          className={`${actionClasses} col-span-2`}
          isBusy={test.isPending}
          disabled={!enabled}
          onClick={sendTest}
          aria-label={`Send test event to ${endpoint.url}`}
          aria-describedby={enabled ? undefined : noteId}
        >
          {!test.isPending && <Send className="size-5" aria-hidden="true" />}
          Send test event
        </Button>
        <Button variant="secondary" className={actionClasses} onClick={onEdit} aria-label={`Edit the endpoint ${endpoint.url}`}>
          <Pencil className="size-5" aria-hidden="true" />
          Edit
        </Button>
        <Button
          variant="secondary"
          className={actionClasses}
          isBusy={update.isPending}
          onClick={() => update.mutate({ endpoint, body: { enabled: !enabled } })}
          aria-label={`${enabled ? 'Disable' : 'Enable'} the endpoint ${endpoint.url}`}
        >
          {!update.isPending && (enabled ? <PowerOff className="size-5" aria-hidden="true" /> : <Power className="size-5" aria-hidden="true" />)}
          {enabled ? 'Disable' : 'Enable'}
        </Button>
        <Button variant="secondary" className={`${actionClasses} col-span-2`} onClick={onDelete} aria-label={`Delete the endpoint ${endpoint.url}`}>
          <Trash2 className="size-5" aria-hidden="true" />
          Delete
        </Button>
      </div>
      {!enabled && (
        <p id={noteId} className="text-sm text-slate-600">
          Enable it to send a test event or resend its deliveries.
        </p>
      )}
      <div id={panelId} hidden={!logOpen} className="rounded-lg border border-slate-200 px-3" role="region" aria-label={`Delivery log of ${endpoint.url}`}>
        {logOpen && <DeliveryLog endpointId={endpoint.id} canResend={enabled} />}
      </div>
    </li>
  );
}
