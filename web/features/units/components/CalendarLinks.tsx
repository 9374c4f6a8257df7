/**
 * 'Calendar links' on Unit detail (docs/product.md "Stays", "Calendar links"): the property's
 * iCal links (or 'No calendar link'), each with when it was last read, its upcoming stays and why
 * it failed, and the typical guests per stay; 'Add calendar link', 'Remove' (asks first) and
 * 'Edit typical guests' for admins and owners, 'Refresh now' for everyone. The stays the links
 * give show in 'Upcoming stays'.
 */
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { CalendarDays, Pencil, Plus, RefreshCw, Trash2 } from 'lucide-react';
import {
  DEFAULT_TYPICAL_GUESTS,
  MAX_CALENDAR_LINKS,
  MAX_CALENDAR_URL_LENGTH,
  type AddCalendarLinkBody,
  type CalendarLinkState,
  type SaveTypicalGuestsBody,
  type UnitCalendar,
} from '../../../../common/contracts/calendars';
import { linkForm, typicalGuestsDraftOf, typicalGuestsForm, upcomingText, type TypicalGuestsDraft } from '../calendar-form';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { Dialog, DialogActions } from '../../../components/ui/Dialog';
import { FormAlert } from '../../../components/ui/FormAlert';
import { LoadError } from '../../../components/ui/LoadError';
import { Spinner } from '../../../components/ui/Spinner';
import { TextField } from '../../../components/ui/TextField';
import { RoleNote } from '../../../components/RoleNote';
import { errorMessages } from '../../../lib/form-errors';
import { formatDateTime } from '../../../lib/format';
import { usePermission } from '../../../lib/use-permission';
import { useAddCalendarLink } from '../api/add-calendar-link';
import { useUnitCalendar } from '../api/get-unit-calendar';
import { useRefreshUnitCalendar } from '../api/refresh-unit-calendar';
import { useRemoveCalendarLink } from '../api/remove-calendar-link';
import { useSaveTypicalGuests } from '../api/save-typical-guests';

function AddLinkForm({ unitId, onClose }: { unitId: string; onClose: () => void }) {
  const id = useId();
  const add = useAddCalendarLink();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<AddCalendarLinkBody, unknown, AddCalendarLinkBody>({ resolver: zodResolver(linkForm), defaultValues: { url: '' } });
  const onSubmit = handleSubmit((body) => add.mutate({ unitId, body }, { onSuccess: onClose }));
  const messages = errorMessages(errors, ['url']);
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      {messages.map((message) => (
        <FormAlert key={message} message={message} />
      ))}
      <TextField
        id={`${id}-url`}
        label="Calendar link (iCal)"
        type="url"
        inputMode="url"
        autoComplete="off"
        placeholder="https://www.airbnb.com/calendar/ical/….ics"
        maxLength={MAX_CALENDAR_URL_LENGTH}
        invalid={Boolean(errors.url)}
        {...register('url')}
      />
      <DialogActions>
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" isBusy={add.isPending}>
          {add.isPending ? 'Adding...' : 'Add'}
        </Button>
      </DialogActions>
    </form>
  );
}

function TypicalGuestsForm({ state, onClose }: { state: UnitCalendar; onClose: () => void }) {
  const id = useId();
  const save = useSaveTypicalGuests();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<TypicalGuestsDraft, unknown, SaveTypicalGuestsBody>({ resolver: zodResolver(typicalGuestsForm), defaultValues: typicalGuestsDraftOf(state) });
  const onSubmit = handleSubmit((body) => save.mutate({ unitId: state.unit_id, body }, { onSuccess: onClose }));
  const messages = errorMessages(errors, ['typical_guests']);
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      {messages.map((message) => (
        <FormAlert key={message} message={message} />
      ))}
      <TextField
        id={`${id}-guests`}
        label="Typical guests per stay"
        inputMode="numeric"
        placeholder={String(DEFAULT_TYPICAL_GUESTS)}
        invalid={Boolean(errors.typical_guests)}
        {...register('typical_guests')}
      />
      <DialogActions>
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" isBusy={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save'}
        </Button>
      </DialogActions>
    </form>
  );
}

function RemoveLink({ unitId, link, onClose }: { unitId: string; link: CalendarLinkState; onClose: () => void }) {
  const remove = useRemoveCalendarLink();
  return (
    <div className="flex flex-col gap-4">
      <p className="break-all text-base text-slate-700">{link.url}</p>
      <p className="text-base text-slate-700">Stays from this link that have not ended are removed from the unit; past stays are kept.</p>
      <DialogActions>
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="danger" isBusy={remove.isPending} onClick={() => remove.mutate({ unitId, linkId: link.id }, { onSuccess: onClose })}>
          Remove
        </Button>
      </DialogActions>
    </div>
  );
}

function LinkDetails({ link, onRemove }: { link: CalendarLinkState; onRemove?: () => void }) {
  return (
    <li className="flex flex-col gap-2 py-3 first:pt-0">
      <dl className="flex flex-col gap-2 text-base">
        <div>
          <dt className="text-sm font-medium text-slate-600">Link</dt>
          <dd className="break-all text-slate-900">{link.url}</dd>
        </div>
        <div>
          <dt className="text-sm font-medium text-slate-600">Last read</dt>
          <dd className="text-slate-900">{link.synced_at ? `${formatDateTime(link.synced_at)} · ${upcomingText(link.upcoming_stays)}` : 'Not yet'}</dd>
        </div>
        {link.error !== null && (
          <div>
            <dt className="text-sm font-medium text-slate-600">Last refresh failed</dt>
            <dd className="text-red-700" role="status">
              {link.error}
            </dd>
          </div>
        )}
      </dl>
      {onRemove && (
        <Button variant="secondary" onClick={onRemove} className="self-start whitespace-nowrap" aria-label={`Remove the calendar link ${link.url}`}>
          <Trash2 className="size-5" aria-hidden="true" />
          Remove
        </Button>
      )}
    </li>
  );
}

type Open = { dialog: 'add' } | { dialog: 'guests' } | { dialog: 'remove'; link: CalendarLinkState } | null;

export function CalendarLinks({ unitId }: { unitId: string }) {
  const calendar = useUnitCalendar(unitId);
  const refresh = useRefreshUnitCalendar();
  const manage = usePermission('properties');
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);

  let content;
  if (calendar.isPending) content = <Spinner className="size-6" label="Loading the calendar links" />;
  else if (calendar.isError) content = <LoadError onRetry={() => void calendar.refetch()} />;
  else {
    const state = calendar.data;
    const full = state.links.length >= MAX_CALENDAR_LINKS;
    content = (
      <>
        {state.links.length === 0 ? (
          <p className="text-base text-slate-600">No calendar link</p>
        ) : (
          <ul className="flex flex-col divide-y divide-slate-200">
            {state.links.map((link) => (
              <LinkDetails key={link.id} link={link} onRemove={manage.allowed ? () => setOpen({ dialog: 'remove', link }) : undefined} />
            ))}
          </ul>
        )}
        <p className="text-base text-slate-700">
          Typical guests per stay: {state.typical_guests ?? `${DEFAULT_TYPICAL_GUESTS} (default)`}
        </p>
        {manage.allowed && full && <p className="text-sm text-slate-600">A unit can have at most {MAX_CALENDAR_LINKS} calendar links.</p>}
        <div className="flex flex-wrap gap-2">
          {manage.allowed && !full && (
            <Button variant="secondary" onClick={() => setOpen({ dialog: 'add' })} className="flex-auto whitespace-nowrap sm:flex-none">
              <Plus className="size-5" aria-hidden="true" />
              Add calendar link
            </Button>
          )}
          {manage.allowed && (
            <Button variant="secondary" onClick={() => setOpen({ dialog: 'guests' })} className="flex-auto whitespace-nowrap sm:flex-none">
              <Pencil className="size-5" aria-hidden="true" />
              Edit typical guests
            </Button>
          )}
          {state.links.length > 0 && (
            <Button
              variant="secondary"
              isBusy={refresh.isPending}
              onClick={() => refresh.mutate(unitId)}
              className="flex-auto whitespace-nowrap sm:flex-none"
            >
              {!refresh.isPending && <RefreshCw className="size-5" aria-hidden="true" />}
              Refresh now
            </Button>
          )}
        </div>
        {!manage.allowed && <RoleNote reason={manage.reason} />}
        <Dialog
          open={open?.dialog === 'add'}
          onClose={close}
          title="Add calendar link"
          description="The iCal export link of the listing on Airbnb, Vrbo, Booking.com or another calendar."
        >
          <AddLinkForm unitId={unitId} onClose={close} />
        </Dialog>
        <Dialog open={open?.dialog === 'guests'} onClose={close} title="Typical guests" description="Guests a stay is counted with when its calendar does not say.">
          <TypicalGuestsForm state={state} onClose={close} />
        </Dialog>
        <Dialog open={open?.dialog === 'remove'} onClose={close} title="Remove the calendar link?">
          {open?.dialog === 'remove' && <RemoveLink unitId={unitId} link={open.link} onClose={close} />}
        </Dialog>
      </>
    );
  }
  return (
    <Card className="flex flex-col gap-3 p-4 sm:p-6" aria-labelledby="unit-calendar-heading">
      <h2 id="unit-calendar-heading" className="flex items-center gap-2 text-xl font-semibold text-slate-900">
        <CalendarDays className="size-5 text-slate-500" aria-hidden="true" />
        Calendar links
      </h2>
      {content}
    </Card>
  );
}
