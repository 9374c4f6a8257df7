/** The forecast's horizon, 3, 7 or 14 days, as one row of large radio buttons (docs/product.md "Screens: Forecast"). */
import { FORECAST_HORIZONS } from '../../../../common/contracts/forecast';

const HORIZONS = [...FORECAST_HORIZONS].sort((a, b) => a - b);

/** Renders the choice; `onChange` gets the days chosen. */
export function HorizonChoice({ value, onChange }: { value: number; onChange: (days: number) => void }) {
  return (
    <fieldset className="flex flex-wrap items-center gap-2">
      <legend className="sr-only">Days ahead</legend>
      <span aria-hidden="true" className="text-sm font-medium text-slate-700">
        Next
      </span>
      <div className="inline-flex overflow-hidden rounded-lg border border-slate-300 bg-white">
        {HORIZONS.map((days) => (
          <label
            key={days}
            className={`flex min-h-11 min-w-16 cursor-pointer items-center justify-center px-3 text-base font-medium has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-blue-700 ${
              value === days ? 'bg-blue-700 text-white' : 'text-slate-800 hover:bg-slate-50'
            }`}
          >
            <input type="radio" name="horizon" value={days} checked={value === days} onChange={() => onChange(days)} className="sr-only" />
            {`${days} days`}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
