/**
 * The fields of Add endpoint and Edit endpoint: URL, description and the events as checkboxes
 * with "All events", checked with the contract's schema, whose messages (the server's own) show
 * under each field. A refused save keeps what was typed, and the server's message about a field
 * goes under it (serverFieldErrors).
 */
import { useEffect, useId, useRef } from 'react';
import { useController, useForm, type Control } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { WEBHOOK_EVENT_TYPES, webhookEventNames } from '../../../../common/contracts/webhook-events';
import { createWebhookEndpointBody, MAX_WEBHOOK_DESCRIPTION_LENGTH, MAX_WEBHOOK_URL_LENGTH } from '../../../../common/contracts/webhooks';
import type { z } from 'zod';
import { Button } from '../../../components/ui/Button';
import { DialogActions } from '../../../components/ui/Dialog';
import { TextField } from '../../../components/ui/TextField';
import { allEventsState, serverFieldErrors, toggleEvent, type EndpointDraft } from '../endpoint-form';
import { ALL_EVENTS_TEXT } from '../webhook-text';

/** What the form hands over once valid: trimmed, events in the screen's order. */
export type EndpointValues = z.output<typeof createWebhookEndpointBody>;

const checkboxClasses = 'mt-0.5 size-5 shrink-0 accent-blue-700';
const choiceClasses = 'flex min-h-11 items-start gap-3 py-2 text-base text-slate-900';

/** The events' fieldset: "All events" (mixed when some are chosen), then one checkbox per event type. */
function EventsField({ control, id }: { control: Control<EndpointDraft, unknown, EndpointValues>; id: string }) {
  const {
    field: { value, onChange, onBlur },
    fieldState: { error },
  } = useController({ control, name: 'events' });
  const all = allEventsState(value);
  const allBox = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (allBox.current) allBox.current.indeterminate = all === 'some';
  }, [all]);
  const errorId = `${id}-events-error`;
  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend className="text-sm font-medium text-slate-700">Events</legend>
      <label className={`${choiceClasses} border-b border-slate-200 font-medium`}>
        <input
          ref={allBox}
          type="checkbox"
          className={checkboxClasses}
          checked={all === 'all'}
          onChange={(e) => onChange(e.target.checked ? [...WEBHOOK_EVENT_TYPES] : [])}
          onBlur={onBlur}
        />
        {ALL_EVENTS_TEXT}
      </label>
      <ul>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <li key={type}>
            <label className={choiceClasses}>
              <input
                type="checkbox"
                className={checkboxClasses}
                checked={value.includes(type)}
                onChange={(e) => onChange(toggleEvent(value, type, e.target.checked))}
                onBlur={onBlur}
              />
              <span className="min-w-0 break-words">{webhookEventNames[type]}</span>
            </label>
          </li>
        ))}
      </ul>
      {error?.message && (
        <p id={errorId} className="text-sm text-red-700">
          {error.message}
        </p>
      )}
    </fieldset>
  );
}

interface EndpointFormProps {
  defaultValues: EndpointDraft;
  /** The submit button's label, and its label while saving. */
  submitLabel: string;
  busyLabel: string;
  isBusy: boolean;
  /** Saves; resolves once the server answered, rejects with its refusal (the form then stays as typed). */
  onSave: (values: EndpointValues) => Promise<unknown>;
  onCancel: () => void;
}

/** The form: its fields, Cancel and the submit button. */
export function EndpointForm({ defaultValues, submitLabel, busyLabel, isBusy, onSave, onCancel }: EndpointFormProps) {
  const id = useId();
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<EndpointDraft, unknown, EndpointValues>({ resolver: zodResolver(createWebhookEndpointBody), defaultValues });
  const onSubmit = handleSubmit(async (values) => {
    try {
      await onSave(values);
    } catch (error) {
      for (const [field, message] of Object.entries(serverFieldErrors(error))) {
        setError(field as keyof EndpointDraft, { type: 'server', message });
      }
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <TextField
        id={`${id}-url`}
        label="URL"
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder="https://example.com/webhooks"
        maxLength={MAX_WEBHOOK_URL_LENGTH}
        error={errors.url?.message}
        {...register('url')}
      />
      <TextField
        id={`${id}-description`}
        label="Description (optional)"
        autoComplete="off"
        placeholder="e.g. Cleaning app"
        maxLength={MAX_WEBHOOK_DESCRIPTION_LENGTH}
        error={errors.description?.message}
        {...register('description')}
      />
      <EventsField control={control} id={id} />
      <DialogActions>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" isBusy={isBusy}>
          {isBusy ? busyLabel : submitLabel}
        </Button>
      </DialogActions>
    </form>
  );
}
