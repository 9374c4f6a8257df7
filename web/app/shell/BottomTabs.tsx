/**
 * The tab bar along the bottom of the signed-in screens on phones (below the `lg` breakpoint,
 * where the sidebar is hidden; docs/product.md "Screens: Route table"): Dashboard, Units, Garages
 * and Forecast in one tap, and More, which opens the menu with the other destinations. Its words
 * and icons are the sidebar's (nav-items.ts). Its height is `--bottom-tabs-h` (styles.css), which
 * the shell's content and the sticky bars above it leave free.
 */
import { Menu } from 'lucide-react';
import { NavLink } from 'react-router';
import { navItems } from './nav-items';

/** The destinations with a tab of their own, in the order of the tab bar. */
const TAB_PATHS = ['/', '/units', '/garages', '/forecast'] as const;
const tabs = TAB_PATHS.map((path) => navItems.find((item) => item.to === path)!);

const tabClass = 'flex min-h-14 min-w-11 flex-1 flex-col items-center justify-center gap-0.5 text-xs font-medium';

interface BottomTabsProps {
  /** The id of the menu that More opens. */
  menuId: string;
  menuOpen: boolean;
  onMore: () => void;
}

/** Renders the tab bar; hidden on wide screens and in print. */
export function BottomTabs({ menuId, menuOpen, onMore }: BottomTabsProps) {
  return (
    <nav
      aria-label="Tabs"
      className="fixed inset-x-0 bottom-0 z-20 border-t border-slate-200 bg-white pb-[env(safe-area-inset-bottom)] lg:hidden print:hidden"
      data-testid="bottom-tabs"
    >
      <ul className="flex">
        {tabs.map(({ to, label, icon: Icon }) => (
          <li key={to} className="flex flex-1">
            <NavLink
              to={to}
              end={to === '/'}
              className={({ isActive }) => `${tabClass} ${isActive ? 'text-blue-700' : 'text-slate-600 hover:text-slate-900'}`}
            >
              {({ isActive }) => (
                <>
                  <span className={`flex h-7 w-12 items-center justify-center rounded-full ${isActive ? 'bg-blue-100' : ''}`}>
                    <Icon className="size-5" aria-hidden="true" />
                  </span>
                  {label}
                </>
              )}
            </NavLink>
          </li>
        ))}
        <li className="flex flex-1">
          <button
            type="button"
            onClick={onMore}
            aria-controls={menuId}
            aria-expanded={menuOpen}
            className={`${tabClass} text-slate-600 hover:text-slate-900`}
          >
            <span className="flex h-7 w-12 items-center justify-center">
              <Menu className="size-5" aria-hidden="true" />
            </span>
            More
          </button>
        </li>
      </ul>
    </nav>
  );
}
