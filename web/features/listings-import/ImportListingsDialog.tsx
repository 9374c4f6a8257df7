/**
 * The Import Listings dialog (docs/product.md "Import from Hostaway"): without a connection, the
 * Client ID and Client Secret form; connected, the account with Disconnect, 'Fetch Listings', the
 * listing cards with Select All / Deselect All and Show Imported / Hide Imported, the garage the
 * new properties go to, and 'Save Selected Listings'. The secret is never shown again once sent.
 */
import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Check } from 'lucide-react';
import { OnlineOnly } from '../../components/OnlineOnly';
import type { HostawayConnection, HostawayListing } from '../../../common/contracts/listings-import';
import { Button } from '../../components/ui/Button';
import { Dialog, DialogActions } from '../../components/ui/Dialog';
import { FormAlert } from '../../components/ui/FormAlert';
import { LoadError } from '../../components/ui/LoadError';
import { SelectField } from '../../components/ui/SelectField';
import { Spinner } from '../../components/ui/Spinner';
import { TextField } from '../../components/ui/TextField';
import { hasErrorCode } from '../../lib/api-error';
import { formatDateTime } from '../../lib/format';
import { useGarages } from '../../lib/queries/get-garages';
import {
  hostawayErrorMessage,
  useConnectHostaway,
  useDisconnectHostaway,
  useFetchListings,
  useGenerateWebhookCredentials,
  useHostawayConnection,
  useImportListings,
} from './api';
import { allSelected, markImported, selectableIds, selectionBody, shownListings, toggled } from './listing-selection';

function ConnectForm() {
  const id = useId();
  const connect = useConnectHostaway();
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const [problem, setProblem] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem('');
    connect.mutate(
      { client_id: clientId.trim(), client_secret: clientSecret },
      {
        onSuccess: () => toast.success('Credentials saved successfully!'),
        onError: (error) => {
          const message = hasErrorCode(error, 'PROVIDER_ERROR', 'VALIDATION') ? hostawayErrorMessage(error, 'Failed to get access token.') : 'Error saving credentials.';
          setProblem(message);
          toast.error(message);
        },
      },
    );
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <p className="text-base text-slate-600">Enter the API credentials from Hostaway (Settings, Hostaway API).</p>
      <TextField
        id={`${id}-client`}
        label="Client ID"
        value={clientId}
        onChange={(e) => setClientId(e.target.value)}
        inputMode="numeric"
        autoComplete="off"
        placeholder="Your Hostaway account ID"
        required
      />
      <TextField
        id={`${id}-secret`}
        label="Client Secret"
        type="password"
        value={clientSecret}
        onChange={(e) => setClientSecret(e.target.value)}
        autoComplete="off"
        required
      />
      <FormAlert message={problem} />
      <Button type="submit" isBusy={connect.isPending} disabled={!clientId.trim() || !clientSecret.trim()}>
        Get Access Token
      </Button>
    </form>
  );
}

function AccountBar({ connection }: { connection: HostawayConnection }) {
  const disconnect = useDisconnectHostaway();
  const [confirming, setConfirming] = useState(false);
  return (
    <div className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-slate-50 px-3 py-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-base font-medium text-slate-900">Connected to Hostaway account {connection.account_id}</p>
        {!confirming && (
          <Button variant="ghost" onClick={() => setConfirming(true)}>
            Disconnect
          </Button>
        )}
      </div>
      {connection.last_synced_at && <p className="text-sm text-slate-600">Stays last synced {formatDateTime(connection.last_synced_at)}</p>}
      {connection.last_sync_error && <p className="text-sm text-red-700">Last sync failed: {connection.last_sync_error}</p>}
      {confirming && (
        <div role="group" aria-label="Disconnect from Hostaway" className="flex flex-col gap-2">
          <p className="text-sm text-slate-700">Disconnect from Hostaway? The stored credentials are removed; imported units stay.</p>
          <div className="flex gap-2">
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button
              variant="danger"
              isBusy={disconnect.isPending}
              onClick={() =>
                disconnect.mutate(undefined, {
                  onSuccess: () => toast.success('Disconnected from Hostaway'),
                  onError: (error) => toast.error(hostawayErrorMessage(error, 'Something went wrong.')),
                })
              }
            >
              Disconnect
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}

/** The webhook Hostaway calls when a reservation changes: its URL and login, and the password once, when generated. */
function WebhookSetup({ connection }: { connection: HostawayConnection }) {
  const generate = useGenerateWebhookCredentials();
  const fresh = generate.data;
  const hook = fresh ?? connection.webhook;
  return (
    <details className="rounded-lg border border-slate-200 px-3 py-2">
      <summary className="cursor-pointer text-base font-medium text-slate-800">Keep stays up to date with Hostaway&apos;s webhook</summary>
      <div className="mt-2 flex flex-col gap-2 text-sm text-slate-700">
        <p>Stays are read every 30 minutes. For changes within seconds, add a unified webhook in Hostaway with this URL, login and password.</p>
        {hook && (
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 break-all">
            <dt className="font-medium">URL</dt>
            <dd>{hook.url}</dd>
            <dt className="font-medium">Login</dt>
            <dd>{hook.login}</dd>
            <dt className="font-medium">Password</dt>
            <dd>{fresh?.password ?? 'Shown only when generated'}</dd>
          </dl>
        )}
        {fresh && <p className="text-amber-800">Copy the password now: it is not shown again.</p>}
        <Button
          variant="secondary"
          isBusy={generate.isPending}
          onClick={() => generate.mutate(undefined, { onError: (error) => toast.error(hostawayErrorMessage(error, 'Something went wrong.')) })}
        >
          {hook ? 'Generate a new password' : 'Generate webhook credentials'}
        </Button>
      </div>
    </details>
  );
}

function ListingCard({ listing, checked, onToggle }: { listing: HostawayListing; checked: boolean; onToggle: () => void }) {
  const tell = () => toast('This listing has already been imported');
  return (
    <li>
      <button
        type="button"
        role="checkbox"
        aria-checked={listing.imported ? false : checked}
        aria-disabled={listing.imported || undefined}
        onClick={listing.imported ? tell : onToggle}
        className={`flex w-full items-start gap-3 rounded-lg border px-3 py-2 text-left ${
          listing.imported ? 'border-slate-200 bg-slate-100 text-slate-500' : checked ? 'border-blue-600 bg-blue-50' : 'border-slate-300 bg-white hover:bg-slate-50'
        }`}
      >
        <span
          className={`mt-0.5 flex size-5 shrink-0 items-center justify-center rounded border ${checked && !listing.imported ? 'border-blue-700 bg-blue-700 text-white' : 'border-slate-400 bg-white'}`}
          aria-hidden="true"
        >
          {checked && !listing.imported && <Check className="size-4" />}
        </span>
        <span className="min-w-0 flex-1">
          <span className="block font-medium break-words text-slate-900">{listing.name}</span>
          <span className="block text-sm break-words text-slate-600">{listing.address}</span>
          {listing.imported && <span className="mt-1 inline-block rounded bg-slate-200 px-2 text-xs font-medium text-slate-700">Imported</span>}
        </span>
      </button>
    </li>
  );
}

function ListingsPanel({ connection }: { connection: HostawayConnection }) {
  const id = useId();
  const garages = useGarages();
  const fetchListings = useFetchListings();
  const save = useImportListings();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [showImported, setShowImported] = useState(true);
  const [garageId, setGarageId] = useState('');
  const [problem, setProblem] = useState('');
  // Listings saved since the last fetch, shown as imported without asking Hostaway again (its
  // limit of 15 requests per 10 s is shared with the sync the save starts).
  const [savedNow, setSavedNow] = useState<Set<string>>(new Set());
  const listings = fetchListings.data && markImported(fetchListings.data, savedNow);
  const garage = garageId || garages.data?.[0]?.id || '';

  const fetchNow = () => {
    setProblem('');
    fetchListings.mutate(undefined, {
      onSuccess: (found) => {
        setSavedNow(new Set());
        setSelected((now) => new Set([...now].filter((x) => selectableIds(found).has(x))));
        if (found.length === 0) toast('No listings found.');
        else toast.success('Listings fetched successfully.');
      },
      onError: (error) => toast.error(hostawayErrorMessage(error, 'Failed to fetch listings.')),
    });
  };

  const saveSelected = () => {
    if (!listings) return;
    const body = selectionBody(listings, selected);
    if (body.length === 0) {
      setProblem('Please select at least one listing');
      return;
    }
    setProblem('');
    save.mutate(
      { garage_id: garage, listings: body },
      {
        onSuccess: (result) => {
          toast.success(result.skipped > 0 ? `Listings imported successfully! ${result.skipped} already imported were skipped.` : 'Listings imported successfully!');
          setSelected(new Set());
          setSavedNow((now) => new Set([...now, ...body.map((l) => l.external_id)]));
        },
        onError: (error) => {
          const message = hasErrorCode(error, 'LIMIT_REACHED', 'CONFLICT', 'VALIDATION', 'NOT_FOUND', 'FORBIDDEN') ? hostawayErrorMessage(error, 'Failed to save listings.') : 'Failed to save listings.';
          setProblem(message);
          toast.error(message);
        },
      },
    );
  };

  const everySelected = listings ? allSelected(listings, selected) : false;
  const shown = listings ? shownListings(listings, showImported) : [];
  const noGarage = garages.data?.length === 0;

  return (
    <div className="flex flex-col gap-4">
      <AccountBar connection={connection} />
      <WebhookSetup connection={connection} />
      <Button variant={listings ? 'secondary' : 'primary'} isBusy={fetchListings.isPending} onClick={fetchNow}>
        Fetch Listings
      </Button>
      {fetchListings.isError && !listings && <FormAlert message={hostawayErrorMessage(fetchListings.error, 'Failed to fetch listings.')} />}
      {listings && listings.length === 0 && <p className="text-base text-slate-600">No listings found.</p>}
      {listings && listings.length > 0 && (
        <>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="secondary"
              disabled={selectableIds(listings).size === 0}
              onClick={() => setSelected(everySelected ? new Set() : selectableIds(listings))}
            >
              {everySelected ? 'Deselect All' : 'Select All'}
            </Button>
            <Button variant="secondary" onClick={() => setShowImported((v) => !v)}>
              {showImported ? 'Hide Imported' : 'Show Imported'}
            </Button>
          </div>
          <p className="text-sm text-slate-600" aria-live="polite">
            {selected.size} of {selectableIds(listings).size} new listings selected · {listings.length - selectableIds(listings).size} already imported
          </p>
          <ul className="flex max-h-[40dvh] flex-col gap-2 overflow-y-auto pr-1" aria-label="Listings">
            {shown.map((l) => (
              <ListingCard key={l.external_id} listing={l} checked={selected.has(l.external_id)} onToggle={() => setSelected((now) => toggled(listings, now, l.external_id))} />
            ))}
            {shown.length === 0 && <li className="text-base text-slate-600">Every listing has been imported.</li>}
          </ul>
          {noGarage ? (
            <FormAlert message="No garages available. Please create a garage first." />
          ) : (
            <SelectField id={`${id}-garage`} label="Assign the new units to garage" value={garage} onChange={(e) => setGarageId(e.target.value)} disabled={!garages.data}>
              {garages.data?.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.name} - {g.address}
                </option>
              ))}
            </SelectField>
          )}
          <FormAlert message={problem} />
          <Button onClick={saveSelected} isBusy={save.isPending} disabled={!garage}>
            Save Selected Listings
          </Button>
        </>
      )}
    </div>
  );
}

interface ImportListingsDialogProps {
  open: boolean;
  /** Called when the dialog closes; the caller refreshes its units list. */
  onClose: () => void;
}

/** The dialog; closed, nothing is mounted (a new opening starts afresh). Offline, the sentence that the import needs a connection. */
export function ImportListingsDialog({ open, onClose }: ImportListingsDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} title="Import Listings from Hostaway">
      <OnlineOnly screen="import">
        <DialogBody />
      </OnlineOnly>
      <DialogActions>
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function DialogBody() {
  const connection = useHostawayConnection();
  if (connection.isPending) return <Spinner className="size-8" label="Loading" />;
  if (connection.isError) {
    // A member, or a plan without the import: the server says which.
    if (hasErrorCode(connection.error, 'FORBIDDEN')) return <FormAlert message={connection.error.message} />;
    return <LoadError onRetry={() => void connection.refetch()} />;
  }
  return connection.data.connected ? <ListingsPanel connection={connection.data} /> : <ConnectForm />;
}
