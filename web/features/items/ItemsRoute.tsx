/** /items: the inventory items table with Add Item, Edit Item and delete (docs/product.md "Screens: Items"). */
import { useState } from 'react';
import { Package, Plus } from 'lucide-react';
import type { Item } from '../../../common/contracts/stock';
import { SubscriptionGate } from '../../components/SubscriptionGate';
import { Button } from '../../components/ui/Button';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog';
import { LoadError } from '../../components/ui/LoadError';
import { PageHeader } from '../../components/ui/PageHeader';
import { PageSpinner } from '../../components/ui/PageSpinner';
import { useItems } from '../../lib/queries/get-items';
import { useDeleteItem } from './api/delete-item';
import { ItemFormDialog } from './components/ItemFormDialog';
import { ItemsTable } from './components/ItemsTable';
import { RoleNote } from '../../components/RoleNote';
import { usePermission } from '../../lib/use-permission';

/** Which modal is open: Add Item, Edit Item of an item, or none. */
type FormState = { mode: 'closed' } | { mode: 'add' } | { mode: 'edit'; item: Item };

function ItemsScreen() {
  const items = useItems();
  const remove = useDeleteItem();
  const [form, setForm] = useState<FormState>({ mode: 'closed' });
  const [deleting, setDeleting] = useState<Item | null>(null);
  const manage = usePermission('items');

  const closeForm = () => setForm({ mode: 'closed' });
  const confirmDelete = () => {
    if (!deleting) return;
    // The dialog closes either way; a refusal (last item, still in stock) is told by a toast.
    remove.mutate(deleting.id, { onSettled: () => setDeleting(null) });
  };

  let content;
  if (!items.data) {
    content = items.isError ? <LoadError onRetry={() => void items.refetch()} /> : <PageSpinner />;
  } else if (items.data.length === 0) {
    content = (
      <div className="flex flex-col items-center gap-3 rounded-xl border border-slate-200 bg-white px-6 py-12 text-center">
        <Package className="size-12 text-slate-400" aria-hidden="true" />
        <h2 className="text-xl font-semibold text-slate-900">No items yet</h2>
        <p className="text-base text-slate-600">Add the supplies you keep in stock, such as towels or soap.</p>
      </div>
    );
  } else {
    content = <ItemsTable items={items.data} onEdit={(item) => setForm({ mode: 'edit', item })} onDelete={setDeleting} />;
  }

  return (
    <>
      <PageHeader
        title="Items"
        subtitle="Manage your inventory items"
        actions={
          manage.allowed ? (
            <Button onClick={() => setForm({ mode: 'add' })}>
              <Plus className="size-5" aria-hidden="true" />
              Add Item
            </Button>
          ) : (
            <RoleNote reason={manage.reason} />
          )
        }
      />
      {content}
      <ItemFormDialog open={form.mode !== 'closed'} item={form.mode === 'edit' ? form.item : undefined} onClose={closeForm} />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete Item"
        message={`Are you sure you want to delete ${deleting?.name ?? 'this item'}? This action cannot be undone.`}
        isBusy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}

/** The Items screen behind the expired-trial gate. */
export function ItemsRoute() {
  return (
    <SubscriptionGate message="Your trial has expired. Please subscribe to continue managing items.">
      <ItemsScreen />
    </SubscriptionGate>
  );
}
