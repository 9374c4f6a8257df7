/** One of the dashboard's four figures. */
import type { LucideIcon } from 'lucide-react';

interface StatCardProps {
  label: string;
  value: number;
  /** data-testid of the number, e.g. 'stat-total-units'. */
  testId: string;
  icon: LucideIcon;
  /** Tailwind classes colouring the icon tile. */
  tone: string;
}

/** Renders the label, the number and an icon. */
export function StatCard({ label, value, testId, icon: Icon, tone }: StatCardProps) {
  return (
    <div className="flex items-center gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <span className={`flex size-11 shrink-0 items-center justify-center rounded-lg ${tone}`}>
        <Icon className="size-6" aria-hidden="true" />
      </span>
      <div className="min-w-0">
        <p className="text-sm font-medium text-slate-600">{label}</p>
        <p className="text-2xl font-bold text-slate-900" data-testid={testId}>
          {value}
        </p>
      </div>
    </div>
  );
}
