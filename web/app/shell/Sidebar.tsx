/**
 * The sidebar: app name and company, navigation, plan badge, and sign-out. Always visible on
 * wide screens; on phones it slides in over the content while `open`.
 */
import { useEffect, useRef } from 'react';
import { Boxes, LogOut, X } from 'lucide-react';
import { Link, NavLink } from 'react-router';
import { useMe } from '../../lib/queries/get-me';
import { navItems } from './nav-items';
import { PlanBadge } from './PlanBadge';

interface SidebarProps {
  id: string;
  open: boolean;
  onClose: () => void;
}

const linkBase = 'flex min-h-12 items-center gap-3 rounded-lg px-3 text-base font-medium transition-colors';

/** Renders the sidebar; choosing a destination closes it on phones. */
export function Sidebar({ id, open, onClose }: SidebarProps) {
  const { data: me } = useMe();
  const closeButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    // On phones the opened menu takes the focus; the button only exists there.
    if (open) closeButton.current?.focus();
  }, [open]);

  return (
    <aside
      id={id}
      // Off-screen on phones while closed; `invisible` also takes it out of focus order and
      // the accessibility tree there.
      className={`fixed inset-y-0 left-0 z-40 flex w-72 max-w-[85vw] flex-col bg-slate-900 text-slate-100 transition-[translate,visibility] duration-200 lg:translate-x-0 print:hidden ${
        open ? 'translate-x-0' : '-translate-x-full max-lg:invisible'
      }`}
    >
      <div className="flex items-center justify-between gap-2 border-b border-white/10 px-4 py-4">
        <div className="flex min-w-0 items-center gap-3">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-blue-600">
            <Boxes className="size-6" aria-hidden="true" />
          </span>
          <div className="min-w-0">
            <p className="truncate font-bold">Inventory Manager</p>
            {me?.tenant && <p className="truncate text-sm text-slate-400">{me.tenant.name}</p>}
          </div>
        </div>
        <button
          ref={closeButton}
          type="button"
          onClick={onClose}
          aria-label="Close menu"
          className="flex size-11 items-center justify-center rounded-lg text-slate-300 hover:bg-white/10 lg:hidden"
        >
          <X className="size-6" aria-hidden="true" />
        </button>
      </div>

      {/* min-h-0: the list scrolls instead of running under the plan badge on a short laptop screen. */}
      <nav aria-label="Main" className="min-h-0 flex-1 overflow-y-auto px-3 py-4">
        <ul className="flex flex-col gap-1">
          {navItems.map(({ to, label, icon: Icon }) => (
            <li key={to}>
              <NavLink
                to={to}
                end={to === '/'}
                onClick={onClose}
                className={({ isActive }) =>
                  `${linkBase} ${isActive ? 'bg-blue-600 text-white' : 'text-slate-300 hover:bg-white/10 hover:text-white'}`
                }
              >
                <Icon className="size-5 shrink-0" aria-hidden="true" />
                {label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>

      <div className="flex shrink-0 flex-col gap-3 border-t border-white/10 px-3 py-4">
        <PlanBadge />
        {me && <p className="truncate px-3 text-sm text-slate-400">{me.user.email}</p>}
        <Link to="/signout" className={`${linkBase} text-slate-300 hover:bg-white/10 hover:text-white`}>
          <LogOut className="size-5 shrink-0" aria-hidden="true" />
          Sign out
        </Link>
      </div>
    </aside>
  );
}
