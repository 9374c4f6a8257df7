/**
 * The screens that need a connection (Reports, Subscription, Users, the Hostaway import) say so
 * plainly while offline, instead of spinning or failing (docs/decisions/048-offline-reads.md):
 * nothing of theirs is kept on the device.
 */
import { useState, type ReactNode } from 'react';
import { WifiOff } from 'lucide-react';
import { useOnline } from '../lib/offline-status';
import { NEEDS_CONNECTION_TEXT, type OnlineOnlyScreen } from '../lib/offline-texts';

/** The online-only screen of each path of the shell; the import is a dialog of /units, not a path. */
const SCREEN_OF_PATH: Readonly<Record<string, OnlineOnlyScreen>> = {
  '/reports': 'reports',
  '/subscription': 'subscription',
  '/users': 'users',
  '/api-keys': 'api-keys',
  '/webhooks': 'webhooks',
};

/**
 * The online-only screen shown at `pathname` (e.g. '/reports' -> 'reports'), or undefined for a
 * screen that can be read offline or has nothing to load.
 */
export function onlineOnlyScreenAt(pathname: string): OnlineOnlyScreen | undefined {
  return Object.hasOwn(SCREEN_OF_PATH, pathname) ? SCREEN_OF_PATH[pathname] : undefined;
}

/** '{Screen} needs a connection…' in a panel, announced as a status. */
export function NeedsConnection({ screen }: { screen: OnlineOnlyScreen }) {
  return (
    <div role="status" className="flex flex-col items-center gap-4 rounded-xl border border-slate-200 bg-white px-6 py-12 text-center">
      <WifiOff className="size-10 text-slate-400" aria-hidden="true" />
      <p className="max-w-md text-base text-slate-700">{NEEDS_CONNECTION_TEXT[screen]}</p>
    </div>
  );
}

/**
 * `children` while online; while offline, the screen's sentence in their place. A screen opened
 * online stays mounted but hidden while offline, so what was typed or chosen there (a report's
 * period, a conversation with the assistant, a form) is still there when the network comes
 * back; one opened offline is not mounted until then, since its requests and code cannot load.
 */
export function OnlineOnly({ screen, children }: { screen: OnlineOnlyScreen; children: ReactNode }) {
  const online = useOnline();
  const [mounted, setMounted] = useState(online);
  // Set during render: the children mount in the same render that first finds the browser online.
  if (online && !mounted) setMounted(true);
  return (
    <>
      {!online && <NeedsConnection screen={screen} />}
      {mounted && <div hidden={!online}>{children}</div>}
    </>
  );
}
