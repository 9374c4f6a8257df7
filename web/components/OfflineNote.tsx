/**
 * What a screen readable offline (Units, Unit detail, Count, Pick list, Garages) shows while the
 * browser is offline (docs/decisions/048-offline-reads.md): above its data, the status line
 * 'Offline — as of {time}', the time its data was last read from the server, so that nobody takes
 * yesterday's stock for today's; with no data kept on the device, a plain sentence instead of a
 * spinner that would never end.
 */
import { WifiOff } from 'lucide-react';
import { useOnline } from '../lib/offline-status';
import { NOT_OPENED_OFFLINE_TEXT, offlineAsOfText } from '../lib/offline-texts';
import { formatAsOf } from '../lib/offline-time';

interface OfflineNoteProps {
  /** When the screen's data was last read from the server: its query's `dataUpdatedAt`, in ms since the epoch (0: never). */
  updatedAt: number;
  className?: string;
}

/** Renders 'Offline — as of {time}' while offline and the data has been read once; nothing otherwise. */
export function OfflineNote({ updatedAt, className = '' }: OfflineNoteProps) {
  const online = useOnline();
  if (online || updatedAt <= 0) return null;
  return (
    <p
      role="status"
      data-testid="offline-note"
      className={`flex w-fit max-w-full items-center gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm font-semibold text-amber-950 ring-1 ring-amber-300 print:hidden ${className}`}
    >
      <WifiOff className="size-4 shrink-0" aria-hidden="true" />
      {offlineAsOfText(formatAsOf(updatedAt))}
    </p>
  );
}

/**
 * Takes the place of a screen's content offline when none of its data is on the device: the
 * screen was not opened here before (or not since its data was cleared at sign-out).
 */
export function NotOpenedOffline() {
  return (
    <div role="status" className="flex flex-col items-center gap-4 rounded-xl border border-slate-200 bg-white px-6 py-12 text-center">
      <WifiOff className="size-10 text-slate-400" aria-hidden="true" />
      <p className="max-w-md text-base text-slate-700">{NOT_OPENED_OFFLINE_TEXT}</p>
    </div>
  );
}
