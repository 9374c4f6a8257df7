/**
 * /api-keys: the company's API keys (docs/product.md "API keys"), for Admins and Owners: each
 * key's name, role, prefix, creator, creation and last use; Create API Key (the key shown once);
 * Revoke with a confirmation; a link to the Webhooks screen. Members are told it is not theirs,
 * and the Users screen does not link here for them.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { KeyRound, Plus, Webhook } from 'lucide-react';
import { apiKeyRoleNames, type ApiKey } from '../../../common/contracts/api-keys';
import { OnlineOnly } from '../../components/OnlineOnly';
import { SubscriptionGate } from '../../components/SubscriptionGate';
import { Button, buttonClasses } from '../../components/ui/Button';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog';
import { PageHeader } from '../../components/ui/PageHeader';
import { Spinner } from '../../components/ui/Spinner';
import { formatDateTime } from '../../lib/format';
import { usePermission } from '../../lib/use-permission';
import { useApiKeys, useRevokeApiKey } from './api/api-keys';
import { CreateApiKeyDialog } from './components/CreateApiKeyDialog';

/** One key of the list: what it is, who made it, when it was last used, and Revoke while it works. */
function ApiKeyRow({ apiKey, busy, onRevoke }: { apiKey: ApiKey; busy: boolean; onRevoke: () => void }) {
  return (
    <li className="flex flex-col gap-3 border-b border-slate-200 px-4 py-3 last:border-b-0 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="font-medium break-words text-slate-900">
          {apiKey.name} - {apiKeyRoleNames[apiKey.role]}
          {apiKey.revoked_at && <span className="ml-2 rounded-full bg-slate-100 px-2 py-0.5 text-sm font-normal text-slate-700">Revoked</span>}
        </p>
        <p className="text-sm break-words text-slate-600">
          <span className="font-mono">{apiKey.prefix}…</span> · Created {formatDateTime(apiKey.created_at)}
          {apiKey.created_by ? ` by ${apiKey.created_by}` : ''}
        </p>
        <p className="text-sm text-slate-600">
          {apiKey.revoked_at
            ? `Revoked ${formatDateTime(apiKey.revoked_at)}`
            : apiKey.last_used_at
              ? `Last used ${formatDateTime(apiKey.last_used_at)}`
              : 'Never used'}
        </p>
      </div>
      {!apiKey.revoked_at && (
        <Button variant="secondary" onClick={onRevoke} disabled={busy} aria-label={`Revoke the API key ${apiKey.name}`}>
          Revoke
        </Button>
      )}
    </li>
  );
}

function ApiKeysScreen() {
  const keys = useApiKeys();
  const [createOpen, setCreateOpen] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const revoke = useRevokeApiKey();

  let content;
  if (!keys.data) {
    content = keys.isError ? (
      <p role="alert" className="rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-red-800">
        Failed to load API keys{' '}
        <Button variant="ghost" onClick={() => void keys.refetch()}>
          Try again
        </Button>
      </p>
    ) : (
      <p className="flex items-center gap-2 text-slate-600">
        <Spinner label="Loading API keys" /> Loading API keys...
      </p>
    );
  } else if (keys.data.keys.length === 0) {
    content = (
      <div className="flex flex-col items-center gap-3 rounded-xl border border-slate-200 bg-white px-6 py-12 text-center">
        <KeyRound className="size-10 text-slate-400" aria-hidden="true" />
        <p className="text-base text-slate-700">No API keys yet</p>
        <p className="max-w-md text-sm text-slate-600">Create a key to let a script or another system read your stock or record changes.</p>
      </div>
    );
  } else {
    content = (
      <section aria-labelledby="api-keys-heading" className="rounded-xl border border-slate-200 bg-white">
        <h2 id="api-keys-heading" className="border-b border-slate-200 px-4 py-3 text-lg font-semibold text-slate-900">
          Keys
        </h2>
        <ul>
          {keys.data.keys.map((apiKey) => (
            <ApiKeyRow key={apiKey.id} apiKey={apiKey} busy={revoke.isPending} onRevoke={() => setRevoking(apiKey)} />
          ))}
        </ul>
      </section>
    );
  }

  return (
    <>
      <PageHeader
        title="API keys"
        subtitle="Keys let scripts and other systems use your company's data"
        actions={
          <>
            <Link to="/webhooks" className={buttonClasses('secondary')}>
              <Webhook className="size-5" aria-hidden="true" />
              Webhooks
            </Link>
            <Button onClick={() => setCreateOpen(true)}>
              <Plus className="size-5" aria-hidden="true" />
              Create API Key
            </Button>
          </>
        }
      />
      {content}
      <CreateApiKeyDialog open={createOpen} onClose={() => setCreateOpen(false)} />
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke API Key"
        message={revoking ? `Revoke the API key “${revoking.name}”? Anything that uses it stops working at once.` : ''}
        confirmLabel="Revoke"
        isBusy={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking, { onSettled: () => setRevoking(null) })}
        onCancel={() => setRevoking(null)}
      />
    </>
  );
}

/** The API keys screen for Admins and Owners; members get the reason; offline, the sentence that it needs a connection. */
export function ApiKeysRoute() {
  const managing = usePermission('apiKeys');
  if (!managing.allowed) {
    return (
      <>
        <PageHeader title="API keys" />
        {managing.reason ? <p className="text-slate-700">{managing.reason}</p> : <Spinner label="Loading" />}
      </>
    );
  }
  return (
    <OnlineOnly screen="api-keys">
      <SubscriptionGate message="Your trial has expired. Please subscribe to continue managing API keys.">
        <ApiKeysScreen />
      </SubscriptionGate>
    </OnlineOnly>
  );
}
