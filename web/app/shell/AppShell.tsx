/**
 * Layout of the signed-in screens (docs/product.md "Screens: Route table"): sidebar, a top bar with the menu button and
 * a bottom tab bar on phones, the offline banner while offline, and the screen itself with the trial pill above it.
 *
 * Offline (docs/decisions/048-offline-reads.md), a screen that needs a connection and was not
 * already open says so here instead of loading its code, which may not be on the device (the
 * service worker leaves Reports out, decision 046); online, what Count needs offline is read in
 * idle time.
 */
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Menu } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { Outlet, useLocation } from 'react-router';
import { firstScreenSettled, useFirstScreenSettled } from '../../lib/first-screen-settled';
import { useOnline } from '../../lib/offline-status';
import { NeedsConnection, onlineOnlyScreenAt } from '../../components/OnlineOnly';
import { OfflineBanner } from './OfflineBanner';
import { BottomTabs } from './BottomTabs';
import { Sidebar } from './Sidebar';
import { TrialPill } from './TrialPill';

/**
 * '3 changes waiting to be sent' (docs/product.md "Offline use"), loaded once the first screen has
 * settled (first-screen-settled.ts): the outbox's IndexedDB code stays out of the dashboard's
 * first download (decision 016).
 */
const PendingChangesStatus = lazy(() =>
  import('../../components/PendingChangesStatus').then(
    (m) => ({ default: m.PendingChangesStatus }),
    () => ({ default: () => null }),
  ),
);

/**
 * The online-only screen to replace by its sentence: offline, at a path that needs a connection,
 * unless that path was the one shown when the network went (its screen, already loaded, hides
 * itself and keeps its state: OnlineOnly).
 */
function useOfflineStandIn(): ReturnType<typeof onlineOnlyScreenAt> {
  const online = useOnline();
  const { pathname } = useLocation();
  // The path last shown online (none when the shell first showed offline).
  const [shownOnline, setShownOnline] = useState(() => (online ? pathname : null));
  if (online && shownOnline !== pathname) setShownOnline(pathname);
  return online || shownOnline === pathname ? undefined : onlineOnlyScreenAt(pathname);
}

/**
 * Each time the shell is shown online, reads in idle time what Count needs offline
 * (web/app/offline/warm-up.ts), never before the first screen has settled.
 */
function useOfflineWarmUp() {
  const queryClient = useQueryClient();
  const online = useOnline();
  useEffect(() => {
    if (!online) return;
    let cancel: (() => void) | undefined;
    let cancelled = false;
    void firstScreenSettled()
      .then(() => import('../offline/warm-up'))
      .then(({ warmUpOfflineScreens }) => {
        if (!cancelled) cancel = warmUpOfflineScreens(queryClient);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
      cancel?.();
    };
  }, [online, queryClient]);
}

const SIDEBAR_ID = 'app-sidebar';

/** Renders the shell around the nested route. */
export function AppShell() {
  const [menuOpen, setMenuOpen] = useState(false);
  // The button that opened the menu (the header's or the tab bar's More), focused again on close.
  const opener = useRef<HTMLElement | null>(null);
  const openMenu = useCallback(() => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setMenuOpen(true);
  }, []);

  const closeMenu = useCallback(() => setMenuOpen(false), []);
  const standIn = useOfflineStandIn();
  const settled = useFirstScreenSettled();
  useOfflineWarmUp();

  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    const button = opener.current;
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      // Keyboard users continue where they opened the menu.
      button?.focus();
    };
  }, [menuOpen]);

  return (
    <div className="min-h-dvh">
      <div className="sticky top-0 z-20 print:hidden">
        <header className="flex items-center gap-3 border-b border-slate-200 bg-white px-2 py-2 lg:hidden">
          <button
            type="button"
            onClick={openMenu}
            aria-label="Open menu"
            aria-controls={SIDEBAR_ID}
            aria-expanded={menuOpen}
            className="flex size-12 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100"
          >
            <Menu className="size-7" aria-hidden="true" />
          </button>
          <span className="text-lg font-bold text-slate-900">Inventory Manager</span>
        </header>
        <OfflineBanner />
      </div>

      {menuOpen && (
        // A press anywhere outside the open menu closes it.
        <div className="fixed inset-0 z-30 bg-slate-900/50 lg:hidden" onClick={closeMenu} aria-hidden="true" data-testid="menu-backdrop" />
      )}
      <Sidebar id={SIDEBAR_ID} open={menuOpen} onClose={closeMenu} />

      {/* Bottom padding: the phone's tab bar (--bottom-tabs-h, styles.css) never covers the page's end. */}
      <main className="px-4 pt-6 pb-[calc(var(--bottom-tabs-h)+2.5rem)] sm:px-6 lg:ml-72 lg:px-10 lg:pt-10 print:m-0 print:p-0">
        <div className="mx-auto max-w-6xl">
          <TrialPill />
          {settled && (
            <Suspense fallback={null}>
              <div className="mb-4 empty:hidden">
                <PendingChangesStatus />
              </div>
            </Suspense>
          )}
          {standIn ? <NeedsConnection screen={standIn} /> : <Outlet />}
        </div>
      </main>
      <BottomTabs menuId={SIDEBAR_ID} menuOpen={menuOpen} onMore={openMenu} />
    </div>
  );
}
