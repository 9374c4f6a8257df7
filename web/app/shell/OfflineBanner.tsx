/**
 * The shell's banner while the browser is offline (docs/decisions/048-offline-reads.md): the
 * screens kept on the device still show, and the banner says what cannot be done until the
 * network is back. Its words are OFFLINE_BANNER_TEXT (web/lib/offline-texts.ts).
 */
import { WifiOff } from 'lucide-react';
import { useOnline } from '../../lib/offline-status';
import { OFFLINE_BANNER_TEXT } from '../../lib/offline-texts';

/** Renders the banner while offline; nothing online. */
export function OfflineBanner() {
  const online = useOnline();
  if (online) return null;
  return (
    <p
      role="status"
      data-testid="offline-banner"
      className="flex items-center gap-2 border-b border-amber-300 bg-amber-100 px-4 py-2 text-sm font-semibold text-amber-950 lg:ml-72 lg:px-10 print:hidden"
    >
      <WifiOff className="size-4 shrink-0" aria-hidden="true" />
      {OFFLINE_BANNER_TEXT}
    </p>
  );
}
