/** Layout of the onboarding wizard: the app name and the step, without the sidebar (docs/product.md "Screens: Route table"). */
import { Boxes } from 'lucide-react';
import { Outlet } from 'react-router';

/** Renders a plain top bar and the nested step. */
export function OnboardingLayout() {
  return (
    <div className="min-h-dvh">
      <header className="flex items-center gap-3 border-b border-slate-200 bg-white px-4 py-3">
        <span className="flex size-9 items-center justify-center rounded-lg bg-blue-700 text-white">
          <Boxes className="size-5" aria-hidden="true" />
        </span>
        <span className="text-lg font-bold text-slate-900">Inventory Manager</span>
      </header>
      <main className="mx-auto max-w-2xl px-4 pt-6 pb-16">
        <Outlet />
      </main>
    </div>
  );
}
