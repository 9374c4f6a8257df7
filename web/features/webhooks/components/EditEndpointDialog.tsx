/** Edit endpoint: its URL, description and events (PATCH /api/webhooks/:id); the secret stays the same. */
import type { WebhookEndpoint } from '../../../../common/contracts/webhooks';
import { Dialog } from '../../../components/ui/Dialog';
import { useUpdateWebhookEndpoint } from '../api/webhooks';
import { endpointDraftOf } from '../endpoint-form';
import { EndpointForm } from './EndpointForm';

function EditForm({ endpoint, onClose }: { endpoint: WebhookEndpoint; onClose: () => void }) {
  const update = useUpdateWebhookEndpoint();
  return (
    <EndpointForm
      defaultValues={endpointDraftOf(endpoint)}
      submitLabel="Save"
      busyLabel="Saving..."
      isBusy={update.isPending}
      onSave={async (body) => {
        await update.mutateAsync({ endpoint, body });
        onClose();
      }}
      onCancel={onClose}
    />
  );
}

/** The dialog, open while `endpoint` is set. */
export function EditEndpointDialog({ endpoint, onClose }: { endpoint: WebhookEndpoint | null; onClose: () => void }) {
  return (
    <Dialog open={endpoint !== null} onClose={onClose} title="Edit endpoint">
      {endpoint && <EditForm endpoint={endpoint} onClose={onClose} />}
    </Dialog>
  );
}
