/** The Monthly/Yearly switch above the plans (docs/product.md "Screens: Subscription"); yearly saves up to 11 %. */
import type { BillingInterval } from '../plan-display';

interface BillingIntervalToggleProps {
  value: BillingInterval;
  onChange: (value: BillingInterval) => void;
}

const options: { value: BillingInterval; label: string }[] = [
  { value: 'month', label: 'Monthly' },
  { value: 'year', label: 'Yearly' },
];

/** Two pressed/unpressed buttons, so each choice is one tap and plain to screen readers. */
export function BillingIntervalToggle({ value, onChange }: BillingIntervalToggleProps) {
  return (
    <div role="group" aria-label="Billing period" className="flex flex-col items-center gap-2">
      <div className="inline-flex rounded-full bg-slate-200 p-1">
        {options.map((option) => {
          const selected = option.value === value;
          return (
            <button
              key={option.value}
              type="button"
              aria-pressed={selected}
              onClick={() => onChange(option.value)}
              className={`min-h-11 min-w-28 rounded-full px-5 text-base font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 ${
                selected ? 'bg-white text-blue-800 shadow-sm' : 'text-slate-600 hover:text-slate-900'
              }`}
            >
              {option.label}
            </button>
          );
        })}
      </div>
      <span className="rounded-full bg-green-100 px-3 py-1 text-sm font-semibold text-green-800">Save up to 11%</span>
    </div>
  );
}
