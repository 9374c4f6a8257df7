/**
 * /garages: storage locations with their stock, Add Garage, inline edit, delete, Count (docs/product.md "Screens: Garages").
 * Offline, the garages read earlier with 'Offline — as of {time}' (docs/decisions/048-offline-reads.md).
 */
import { useState } from 'react';
import { Plus, Warehouse } from 'lucide-react';
import type { Garage } from '../../../common/contracts/stock';
import { SubscriptionGate } from '../../components/SubscriptionGate';
import { NotOpenedOffline, OfflineNote } from '../../components/OfflineNote';
import { Button } from '../../components/ui/Button';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog';
import { LoadError } from '../../components/ui/LoadError';
import { PageHeader } from '../../components/ui/PageHeader';
import { PageSpinner } from '../../components/ui/PageSpinner';
import { hasErrorCode } from '../../lib/api-error';
import { useOnline } from '../../lib/offline-status';
import { useGarages } from '../../lib/queries/get-garages';
import { useDeleteGarage } from './api/delete-garage';
import { AddGarageDialog } from './components/AddGarageDialog';
import { GarageCard } from './components/GarageCard';
import { RoleNote } from '../../components/RoleNote';
import { usePermission } from '../../lib/use-permission';

function GaragesScreen() {
  const garages = useGarages();
  const online = useOnline();
  const remove = useDeleteGarage();
  const manage = usePermission('storage');
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Garage | null>(null);
  /** Why the server refused the delete: the garage still holds stock or properties. */
  const [refusal, setRefusal] = useState<string>();

  const close = () => {
    setDeleting(null);
    setRefusal(undefined);
  };
  const confirmDelete = () => {
    if (!deleting) return;
    // A garage that still holds stock or properties is refused with what it holds, which the
    // dialog shows; other failures (the last garage) close it and are told by a toast.
    remove.mutate(deleting.id, {
      onSuccess: close,
      onError: (error) => (hasErrorCode(error, 'CONFLICT') ? setRefusal(error.message) : close()),
    });
  };

  let content;
  if (!garages.data && !online) {
    content = <NotOpenedOffline />;
  } else if (!garages.data) {
    content = garages.isError ? <LoadError onRetry={() => void garages.refetch()} /> : <PageSpinner />;
  } else if (garages.data.length === 0) {
    content = (
      <div className="flex flex-col items-center gap-3 rounded-xl border border-slate-200 bg-white px-6 py-12 text-center">
        <Warehouse className="size-12 text-slate-400" aria-hidden="true" />
        <h2 className="text-xl font-semibold text-slate-900">No Garages Found</h2>
        <p className="text-base text-slate-600">You haven&apos;t added any garages yet</p>
        <Button onClick={() => setAdding(true)}>Add Your First Garage</Button>
      </div>
    );
  } else {
    content = (
      <div className="grid gap-4 lg:grid-cols-2">
        {garages.data.map((garage) => (
          <GarageCard key={garage.id} garage={garage} onDelete={setDeleting} />
        ))}
      </div>
    );
  }

  return (
    <>
      <PageHeader
        title="Garages"
        subtitle="Manage your storage garages"
        actions={
          manage.allowed ? (
            <Button onClick={() => setAdding(true)}>
              <Plus className="size-5" aria-hidden="true" />
              Add Garage
            </Button>
          ) : (
            <RoleNote reason={manage.reason} />
          )
        }
      />
      <OfflineNote updatedAt={garages.dataUpdatedAt} className="mb-4" />
      {content}
      <AddGarageDialog open={adding} onClose={() => setAdding(false)} />
      <ConfirmDialog
        open={deleting !== null}
        title="Confirm Delete"
        message="Are you sure you want to delete this garage? This action cannot be undone."
        isBusy={remove.isPending}
        refusal={refusal}
        onConfirm={confirmDelete}
        onCancel={close}
      />
    </>
  );
}

/** The Garages screen behind the expired-trial gate. */
export function GaragesRoute() {
  return (
    <SubscriptionGate message="Your trial has expired. Please subscribe to continue managing garages.">
      <GaragesScreen />
    </SubscriptionGate>
  );
}
