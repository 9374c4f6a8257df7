/**
 * 'Calendar link' on Unit detail (docs/product.md "Stays", "Calendar links"): the property's iCal
 * link (or 'No calendar link'), its typical guests, when it was last read and why it failed;
 * 'Edit' for admins and owners (link and typical guests; removing the link asks first) and
 * 'Refresh now' for everyone. The stays it gives show in 'Upcoming stays'.
 */
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { CalendarDays, Pencil, RefreshCw } from 'lucide-react';
import { DEFAULT_TYPICAL_GUESTS, MAX_CALENDAR_URL_LENGTH, type SaveCalendarBody, type UnitCalendar } from '../../../../common/contracts/calendars';
import { calendarDraftOf, calendarForm, type CalendarDraft } from '../calendar-form';
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
import { useUnitCalendar } from '../api/get-unit-calendar';
import { useRefreshUnitCalendar } from '../api/refresh-unit-calendar';
import { useSaveUnitCalendar } from '../api/save-unit-calendar';

function CalendarForm({ state, onClose }: { state: UnitCalendar; onClose: () => void }) {
  const id = useId();
  const save = useSaveUnitCalendar();
  /** A body that removes the link, waiting for the person to confirm. */
  const [removing, setRemoving] = useState<SaveCalendarBody | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<CalendarDraft, unknown, SaveCalendarBody>({ resolver: zodResolver(calendarForm), defaultValues: calendarDraftOf(state) });
  const send = (body: SaveCalendarBody) => save.mutate({ unitId: state.unit_id, body }, { onSuccess: onClose });
  // Removing a link removes the stays it gave that have not ended: asked first.
  const onSubmit = handleSubmit((body) => (body.calendar_url === null && state.calendar_url !== null ? setRemoving(body) : send(body)));
  const messages = errorMessages(errors, ['calendar_url', 'typical_guests']);

  if (removing) {
    return (
      <div className="flex flex-col gap-4">
        <p className="text-base text-slate-700">Remove the calendar link? Stays from this link that have not ended are removed from the property; past stays are kept.</p>
        <DialogActions>
          <Button variant="secondary" onClick={() => setRemoving(null)}>
            Cancel
          </Button>
          <Button variant="danger" isBusy={save.isPending} onClick={() => send(removing)}>
            Remove
          </Button>
        </DialogActions>
      </div>
    );
  }
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
        invalid={Boolean(errors.calendar_url)}
        {...register('calendar_url')}
      />
      <p className="-mt-2 text-sm text-slate-600">Leave it empty to remove the link.</p>
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

function CalendarDetails({ state }: { state: UnitCalendar }) {
  if (state.calendar_url === null) return <p className="text-base text-slate-600">No calendar link</p>;
  return (
    <dl className="flex flex-col gap-2 text-base">
      <div>
        <dt className="text-sm font-medium text-slate-600">Link</dt>
        <dd className="break-all text-slate-900">{state.calendar_url}</dd>
      </div>
      <div>
        <dt className="text-sm font-medium text-slate-600">Last read</dt>
        <dd className="text-slate-900">{state.synced_at ? formatDateTime(state.synced_at) : 'Not yet'}</dd>
      </div>
      {state.error !== null && (
        <div>
          <dt className="text-sm font-medium text-slate-600">Last refresh failed</dt>
          <dd className="text-red-700" role="status">
            {state.error}
          </dd>
        </div>
      )}
    </dl>
  );
}

export function CalendarLink({ unitId }: { unitId: string }) {
  const calendar = useUnitCalendar(unitId);
  const refresh = useRefreshUnitCalendar();
  const manage = usePermission('properties');
  const [editing, setEditing] = useState(false);

  let content;
  if (calendar.isPending) content = <Spinner className="size-6" label="Loading the calendar link" />;
  else if (calendar.isError) content = <LoadError onRetry={() => void calendar.refetch()} />;
  else {
    const state = calendar.data;
    content = (
      <>
        <CalendarDetails state={state} />
        <p className="text-base text-slate-700">
          Typical guests per stay: {state.typical_guests ?? `${DEFAULT_TYPICAL_GUESTS} (default)`}
        </p>
        <div className="flex flex-wrap gap-2">
          {manage.allowed && (
            <Button variant="secondary" onClick={() => setEditing(true)} className="flex-auto whitespace-nowrap sm:flex-none">
              <Pencil className="size-5" aria-hidden="true" />
              Edit
            </Button>
          )}
          {state.calendar_url !== null && (
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
          open={editing}
          onClose={() => setEditing(false)}
          title="Calendar link"
          description="The iCal export link of the listing on Airbnb, Vrbo, Booking.com or another calendar."
        >
          <CalendarForm state={state} onClose={() => setEditing(false)} />
        </Dialog>
      </>
    );
  }
  return (
    <Card className="flex flex-col gap-3 p-4 sm:p-6" aria-labelledby="unit-calendar-heading">
      <h2 id="unit-calendar-heading" className="flex items-center gap-2 text-xl font-semibold text-slate-900">
        <CalendarDays className="size-5 text-slate-500" aria-hidden="true" />
        Calendar link
      </h2>
      {content}
    </Card>
  );
}
