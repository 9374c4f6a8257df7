/** Tells the user plainly that a screen exists in the menu but has no function yet. */
import { Construction } from 'lucide-react';

/** Renders the "not available yet" panel. */
export function NotAvailableNotice() {
  return (
    <div
      role="note"
      className="flex flex-col items-center gap-3 rounded-xl border-2 border-dashed border-amber-300 bg-amber-50 px-6 py-12 text-center"
    >
      <Construction className="size-10 text-amber-600" aria-hidden="true" />
      <p className="text-lg font-semibold text-amber-900">This screen is not available yet.</p>
    </div>
  );
}
