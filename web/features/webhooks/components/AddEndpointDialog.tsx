/**
 * Add endpoint: URL, description and events; once added, the endpoint's signing secret is shown
 * this once, with Copy and the warning that it will not be shown again (as a new API key is).
 */
import { useState } from 'react';
import { WEBHOOK_SECRET_PREFIX, type CreateWebhookEndpointAnswer } from '../../../../common/contracts/webhooks';
import { Button } from '../../../components/ui/Button';
import { CopyField } from '../../../components/ui/CopyField';
import { Dialog, DialogActions } from '../../../components/ui/Dialog';
import { useCreateWebhookEndpoint } from '../api/webhooks';
import { emptyEndpointDraft } from '../endpoint-form';
import { EndpointForm } from './EndpointForm';

function AddForm({ onAdded, onClose }: { onAdded: (answer: CreateWebhookEndpointAnswer) => void; onClose: () => void }) {
  const create = useCreateWebhookEndpoint();
  return (
    <EndpointForm
      defaultValues={emptyEndpointDraft}
      submitLabel="Add endpoint"
      busyLabel="Adding..."
      isBusy={create.isPending}
      onSave={async (values) => onAdded(await create.mutateAsync(values))}
      onCancel={onClose}
    />
  );
}

/** The secret, once: selectable text, Copy, the warning, and how a receiver uses it. */
function SecretShownOnce({ answer, onClose }: { answer: CreateWebhookEndpointAnswer; onClose: () => void }) {
  return (
    <div className="flex flex-col gap-4">
      <p role="alert" className="rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-amber-900">
        Store this secret now: it will not be shown again.
      </p>
      <p className="text-base break-all text-slate-700">{answer.endpoint.url}</p>
      <CopyField label="Signing secret" value={answer.secret} noun="secret" />
      <p className="text-sm text-slate-600">
        Your receiver checks each delivery's <code className="font-mono">webhook-signature</code> header with it (Standard Webhooks). It starts
        with <code className="font-mono">{WEBHOOK_SECRET_PREFIX}</code>.
      </p>
      <DialogActions>
        <Button onClick={onClose}>Done</Button>
      </DialogActions>
    </div>
  );
}

/** The Add endpoint dialog: the form, then the new endpoint's secret shown once. */
export function AddEndpointDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [added, setAdded] = useState<CreateWebhookEndpointAnswer | null>(null);
  const close = () => {
    // The secret leaves memory with the dialog: it is never shown again.
    setAdded(null);
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      title={added ? 'Your endpoint’s signing secret' : 'Add endpoint'}
      description={added ? undefined : 'The URL receives a signed POST request for each event you choose.'}
    >
      {open && (added ? <SecretShownOnce answer={added} onClose={close} /> : <AddForm onAdded={setAdded} onClose={close} />)}
    </Dialog>
  );
}
