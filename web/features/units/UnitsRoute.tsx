/**
 * /units: the units list (docs/product.md "Screens: Units") with search, Add Unit, the listing import
 * from Hostaway, delete, 'Quick Scan Items' (the AI photo scanner) and 'View Details'. Offline, the
 * list read earlier with 'Offline — as of {time}' (docs/decisions/048-offline-reads.md).
 */
import { useState, type ComponentType } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Download, House, Plus } from 'lucide-react';
import type { Unit } from '../../../common/contracts/stock';
import { NotOpenedOffline, OfflineNote } from '../../components/OfflineNote';
import { SubscriptionGate } from '../../components/SubscriptionGate';
import { Button, buttonClasses } from '../../components/ui/Button';
import { SearchField } from '../../components/ui/SearchField';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog';
import { LoadError } from '../../components/ui/LoadError';
import { ScanDialog } from '../../components/scanner/ScanDialog';
import { PageHeader } from '../../components/ui/PageHeader';
import { PageSpinner } from '../../components/ui/PageSpinner';
import { useOnline } from '../../lib/offline-status';
import { unitsQuery, useUnits } from '../../lib/queries/get-units';
import { useDeleteUnit } from './api/delete-unit';
import { UnitCard } from './components/UnitCard';
import { filterUnits } from './unit-search';
import { RoleNote } from '../../components/RoleNote';
import { usePermission } from '../../lib/use-permission';

function NoUnits() {
  return (
    <div className="flex flex-col items-center gap-3 rounded-xl border border-slate-200 bg-white px-6 py-12 text-center">
      <House className="size-12 text-slate-400" aria-hidden="true" />
      <h2 className="text-xl font-semibold text-slate-900">No Units Found</h2>
      <p className="text-base text-slate-600">You haven&apos;t added any units yet</p>
      <Link to="/add-unit" className={buttonClasses('primary')}>
        Add Your First Unit
      </Link>
    </div>
  );
}

/** The Import Listings dialog of the Hostaway import, which the app gives this screen (features never import each other, decision 018). */
export type ImportListingsPart = ComponentType<{ open: boolean; onClose: () => void }>;

function UnitsScreen({ ImportListings }: { ImportListings: ImportListingsPart }) {
  const queryClient = useQueryClient();
  const units = useUnits();
  const remove = useDeleteUnit();
  const manage = usePermission('properties');
  const [query, setQuery] = useState('');
  const [deleting, setDeleting] = useState<Unit | null>(null);
  const [scanning, setScanning] = useState<Unit | null>(null);
  const [importing, setImporting] = useState(false);
  const online = useOnline();

  const confirmDelete = () => {
    if (!deleting) return;
    // The dialog closes either way; a refusal (the last unit) is told by a toast.
    remove.mutate(deleting.id, { onSettled: () => setDeleting(null) });
  };
  const closeImport = () => {
    setImporting(false);
    // Closing the import dialog refreshes the list (docs/product.md "Screens: Units").
    void queryClient.invalidateQueries({ queryKey: unitsQuery.queryKey, exact: true });
  };

  let content;
  if (!units.data && !online) {
    content = <NotOpenedOffline />;
  } else if (!units.data) {
    content = units.isError ? <LoadError onRetry={() => void units.refetch()} /> : <PageSpinner />;
  } else if (units.data.length === 0) {
    content = <NoUnits />;
  } else {
    const shown = filterUnits(units.data, query);
    content = (
      <>
        <SearchField label="Search units" placeholder="Search units by name or address..." value={query} onChange={setQuery} className="mb-4" />
        {shown.length === 0 ? (
          <p className="rounded-xl border border-slate-200 bg-white px-6 py-10 text-center text-base text-slate-600">No units match your search.</p>
        ) : (
          <div className="grid gap-4 md:grid-cols-2 2xl:grid-cols-3">
            {shown.map((unit) => (
              <UnitCard key={unit.id} unit={unit} onDelete={setDeleting} onScan={setScanning} />
            ))}
          </div>
        )}
      </>
    );
  }

  return (
    <>
      <PageHeader
        title="Units"
        subtitle="Manage your property units"
        actions={
          <>
            {manage.allowed ? (
              <Link to="/add-unit" className={buttonClasses('primary')}>
                <Plus className="size-5" aria-hidden="true" />
                Add Unit
              </Link>
            ) : (
              <RoleNote reason={manage.reason} />
            )}
            <Button variant="secondary" onClick={() => setImporting(true)}>
              <Download className="size-5" aria-hidden="true" />
              Import Listings
            </Button>
          </>
        }
      />
      <OfflineNote updatedAt={units.dataUpdatedAt} className="mb-4" />
      {content}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete Unit"
        message={`Are you sure you want to delete ${deleting?.name ?? 'this unit'}? This action cannot be undone`}
        isBusy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
      <ScanDialog unit={scanning} onClose={() => setScanning(null)} />
      <ImportListings open={importing} onClose={closeImport} />
    </>
  );
}

/** The Units screen behind the expired-trial gate. */
export function UnitsRoute({ ImportListings }: { ImportListings: ImportListingsPart }) {
  return (
    <SubscriptionGate message="Your trial has expired. Please subscribe to continue managing units.">
      <UnitsScreen ImportListings={ImportListings} />
    </SubscriptionGate>
  );
}
