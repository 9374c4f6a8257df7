/** A form-level message, e.g. a validation problem that concerns several fields. */
import { CircleAlert } from 'lucide-react';

/** Renders `message` as an alert box; nothing when it is empty. */
export function FormAlert({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <p role="alert" className="flex items-start gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      {message}
    </p>
  );
}
