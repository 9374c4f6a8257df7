/**
 * Create API Key: a name and a role (never more than the creator's own, which the server checks
 * too); once created, the whole key is shown this once, with a copy button and the warning that
 * it will not be shown again.
 */
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { createApiKeyBody, type ApiKeyRole, type CreateApiKeyBody, type CreatedApiKey } from '../../../../common/contracts/api-keys';
import { MAX_TEXT_LENGTH } from '../../../../common/contracts/fields';
import { Button } from '../../../components/ui/Button';
import { CopyField } from '../../../components/ui/CopyField';
import { Dialog, DialogActions } from '../../../components/ui/Dialog';
import { SelectField } from '../../../components/ui/SelectField';
import { TextField } from '../../../components/ui/TextField';
import { useCreateApiKey } from '../api/api-keys';

/** What each role lets a key do, as the role menu says it. */
const ROLE_CHOICES: { role: ApiKeyRole; label: string }[] = [
  { role: 'read_only', label: 'Read-only — reads units, garages, items, stock and reports' },
  { role: 'member', label: 'Member — also changes stock' },
  { role: 'admin', label: 'Admin — also manages items, garages and units' },
];

function CreateForm({ onCreated, onClose }: { onCreated: (key: CreatedApiKey) => void; onClose: () => void }) {
  const id = useId();
  const create = useCreateApiKey();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<{ name: string; role: ApiKeyRole }, unknown, CreateApiKeyBody>({
    resolver: zodResolver(createApiKeyBody),
    defaultValues: { name: '', role: 'read_only' },
  });
  const onSubmit = handleSubmit((body) => create.mutate(body, { onSuccess: onCreated }));
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <TextField
        id={`${id}-name`}
        label="Name"
        autoComplete="off"
        maxLength={MAX_TEXT_LENGTH}
        placeholder="e.g. Cleaning app"
        error={errors.name?.message}
        {...register('name')}
      />
      <SelectField id={`${id}-role`} label="Role" error={errors.role?.message} {...register('role')}>
        {ROLE_CHOICES.map((c) => (
          <option key={c.role} value={c.role}>
            {c.label}
          </option>
        ))}
      </SelectField>
      <DialogActions>
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" isBusy={create.isPending}>
          {create.isPending ? 'Creating...' : 'Create Key'}
        </Button>
      </DialogActions>
    </form>
  );
}

/** The new key, once: selectable text, a copy button and the warning. */
function ShownOnce({ created, onClose }: { created: CreatedApiKey; onClose: () => void }) {
  return (
    <div className="flex flex-col gap-4">
      <p role="alert" className="rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-amber-900">
        Copy this key now and keep it somewhere safe. It will not be shown again.
      </p>
      <CopyField label={`API key “${created.name}”`} value={created.key} noun="key" />
      <p className="text-sm text-slate-600">
        Send it in the <code className="font-mono">Authorization: Bearer</code> header of each request.
      </p>
      <DialogActions>
        <Button onClick={onClose}>Done</Button>
      </DialogActions>
    </div>
  );
}

/** The Create API Key dialog: the form, then the new key shown once. */
export function CreateApiKeyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const close = () => {
    // The key leaves memory with the dialog: it is never shown again.
    setCreated(null);
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      title={created ? 'Your new API key' : 'Create API Key'}
      description={created ? undefined : 'A script or another system uses it to call the API as your company, within the role you choose.'}
    >
      {open && (created ? <ShownOnce created={created} onClose={close} /> : <CreateForm onCreated={setCreated} onClose={close} />)}
    </Dialog>
  );
}
