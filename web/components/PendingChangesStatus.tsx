/**
 * The shell's line about stock changes kept on this phone: "3 changes waiting to be sent", or
 * "1 change not sent" when the server refused some, linking to the list (/pending-changes).
 * Nothing when there are none.
 */
import { Link } from 'react-router';
import { CloudOff, TriangleAlert } from 'lucide-react';
import { waitingText } from '../lib/outbox/pending-change';
import { useOutbox } from '../lib/outbox/use-outbox';

/** The status line, for the shell's header area. */
export function PendingChangesStatus() {
  const { waiting, notSent } = useOutbox();
  if (waiting.length === 0 && notSent.length === 0) return null;
  const refused = notSent.length > 0;
  return (
    <p role="status">
      <Link
        to="/pending-changes"
        className={`inline-flex min-h-11 items-center gap-2 rounded-lg border px-3 py-2 text-base font-medium ${
          refused ? 'border-red-200 bg-red-50 text-red-800' : 'border-amber-200 bg-amber-50 text-amber-900'
        }`}
      >
        {refused ? <TriangleAlert className="size-5" aria-hidden="true" /> : <CloudOff className="size-5" aria-hidden="true" />}
        {[waiting.length > 0 ? waitingText(waiting.length) : '', refused ? `${notSent.length} not sent` : ''].filter(Boolean).join(' · ')}
      </Link>
    </p>
  );
}
