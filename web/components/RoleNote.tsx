/** Stands where an action the person's role does not allow would be: the reason, never a button that fails. */
import { Lock } from 'lucide-react';

/** Renders `reason` (nothing while the role is not known yet). */
export function RoleNote({ reason }: { reason: string | undefined }) {
  if (!reason) return null;
  return (
    <p className="flex items-center gap-1.5 text-sm text-slate-600">
      <Lock className="size-4 shrink-0" aria-hidden="true" />
      {reason}
    </p>
  );
}
