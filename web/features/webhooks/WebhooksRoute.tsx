/**
 * /webhooks: the company's webhook endpoints (docs/product.md "Screens: Webhooks"), for Admins and
 * Owners, reached from the API keys screen: each endpoint's URL, description, events and status,
 * with its delivery log, Send test event, Edit, Enable or Disable, and Delete (asked first); Add
 * endpoint (the signing secret shown once). Members are told it is not theirs, as on /api-keys.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { KeyRound, Plus, Webhook } from 'lucide-react';
import { MAX_WEBHOOK_ENDPOINTS, type WebhookEndpoint } from '../../../common/contracts/webhooks';
import { OnlineOnly } from '../../components/OnlineOnly';
import { Button, buttonClasses } from '../../components/ui/Button';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog';
import { LoadError } from '../../components/ui/LoadError';
import { PageHeader } from '../../components/ui/PageHeader';
import { Spinner } from '../../components/ui/Spinner';
import { usePermission } from '../../lib/use-permission';
import { useDeleteWebhookEndpoint, useWebhookEndpoints } from './api/webhooks';
import { AddEndpointDialog } from './components/AddEndpointDialog';
import { EditEndpointDialog } from './components/EditEndpointDialog';
import { EndpointCard } from './components/EndpointCard';

function WebhooksScreen() {
  const endpoints = useWebhookEndpoints();
  const [addOpen, setAddOpen] = useState(false);
  const [editing, setEditing] = useState<WebhookEndpoint | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);
  const remove = useDeleteWebhookEndpoint();
  const full = (endpoints.data?.endpoints.length ?? 0) >= MAX_WEBHOOK_ENDPOINTS;

  let content;
  if (endpoints.isPending) {
    content = (
      <p className="flex items-center gap-2 text-slate-600">
        <Spinner label="Loading webhook endpoints" /> Loading webhook endpoints...
      </p>
    );
  } else if (endpoints.isError) {
    content = <LoadError onRetry={() => void endpoints.refetch()} />;
  } else if (endpoints.data.endpoints.length === 0) {
    content = (
      <div className="flex flex-col items-center gap-3 rounded-xl border border-slate-200 bg-white px-6 py-12 text-center">
        <Webhook className="size-10 text-slate-400" aria-hidden="true" />
        <p className="text-base text-slate-700">No webhook endpoints yet</p>
        <p className="max-w-md text-sm text-slate-600">
          A webhook tells another system the moment something happens here, such as stock turning low or a stay being added.
        </p>
      </div>
    );
  } else {
    content = (
      <section aria-labelledby="webhook-endpoints-heading" className="rounded-xl border border-slate-200 bg-white">
        <h2 id="webhook-endpoints-heading" className="border-b border-slate-200 px-4 py-3 text-lg font-semibold text-slate-900">
          Endpoints
        </h2>
        <ul>
          {endpoints.data.endpoints.map((endpoint) => (
            <EndpointCard key={endpoint.id} endpoint={endpoint} onEdit={() => setEditing(endpoint)} onDelete={() => setDeleting(endpoint)} />
          ))}
        </ul>
      </section>
    );
  }

  return (
    <>
      <PageHeader
        title="Webhooks"
        subtitle="Send your company's events to other systems as they happen"
        actions={
          <div className="flex flex-col items-start gap-1 sm:items-end">
            <div className="flex flex-wrap gap-2">
              <Link to="/api-keys" className={buttonClasses('secondary')}>
                <KeyRound className="size-5" aria-hidden="true" />
                API keys
              </Link>
              <Button onClick={() => setAddOpen(true)} disabled={full} aria-describedby={full ? 'webhooks-full' : undefined}>
                <Plus className="size-5" aria-hidden="true" />
                Add endpoint
              </Button>
            </div>
            {full && (
              <p id="webhooks-full" className="text-sm text-slate-600">
                A company can have at most {MAX_WEBHOOK_ENDPOINTS} webhook endpoints.
              </p>
            )}
          </div>
        }
      />
      {content}
      <AddEndpointDialog open={addOpen} onClose={() => setAddOpen(false)} />
      <EditEndpointDialog endpoint={editing} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete endpoint"
        message={deleting ? `Delete the endpoint “${deleting.url}”? It receives no more events, and its delivery log is deleted with it.` : ''}
        isBusy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting, { onSettled: () => setDeleting(null) })}
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}

/** The Webhooks screen for Admins and Owners; members get the reason; offline, the sentence that it needs a connection. */
export function WebhooksRoute() {
  const managing = usePermission('webhooks');
  if (!managing.allowed) {
    return (
      <>
        <PageHeader title="Webhooks" />
        {managing.reason ? <p className="text-slate-700">{managing.reason}</p> : <Spinner label="Loading" />}
      </>
    );
  }
  // No expired-trial gate: a company whose trial ended can still see, stop and fix its
  // endpoints; only Add endpoint is refused then (402, and the plans open).
  return (
    <OnlineOnly screen="webhooks">
      <WebhooksScreen />
    </OnlineOnly>
  );
}
