/**
 * Layout of the signed-in screens (docs/product.md "Screens: Route table"): sidebar, a top bar with the menu button on
 * phones, and the screen itself with the trial pill above it.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Menu } from 'lucide-react';
import { Outlet } from 'react-router';
import { Sidebar } from './Sidebar';
import { TrialPill } from './TrialPill';

const SIDEBAR_ID = 'app-sidebar';

/** Renders the shell around the nested route. */
export function AppShell() {
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);

  const closeMenu = useCallback(() => setMenuOpen(false), []);

  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    const button = menuButton.current;
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      // Keyboard users continue where they opened the menu.
      button?.focus();
    };
  }, [menuOpen]);

  return (
    <div className="min-h-dvh">
      <header className="sticky top-0 z-20 flex items-center gap-3 border-b border-slate-200 bg-white px-2 py-2 lg:hidden print:hidden">
        <button
          ref={menuButton}
          type="button"
          onClick={() => setMenuOpen(true)}
          aria-label="Open menu"
          aria-controls={SIDEBAR_ID}
          aria-expanded={menuOpen}
          className="flex size-12 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100"
        >
          <Menu className="size-7" aria-hidden="true" />
        </button>
        <span className="text-lg font-bold text-slate-900">Inventory Manager</span>
      </header>

      {menuOpen && (
        // A press anywhere outside the open menu closes it.
        <div className="fixed inset-0 z-30 bg-slate-900/50 lg:hidden" onClick={closeMenu} aria-hidden="true" data-testid="menu-backdrop" />
      )}
      <Sidebar id={SIDEBAR_ID} open={menuOpen} onClose={closeMenu} />

      <main className="px-4 pt-6 pb-10 sm:px-6 lg:ml-72 lg:px-10 lg:pt-10 print:m-0 print:p-0">
        <div className="mx-auto max-w-6xl">
          <TrialPill />
          <Outlet />
        </div>
      </main>
    </div>
  );
}
