/**
 * 'Cost by Unit' (docs/product.md "Screens: Reports"): each unit's cost for the chosen period, and its cost over
 * the last week and month, red when above the period's cost, else green.
 */
import type { CostReport } from '../../../../common/contracts/reports';
import { formatDollars } from '../../../lib/format';
import { comparisonTone } from '../report-format';

const toneClasses = { above: 'text-red-700', within: 'text-green-700' } as const;

type UnitCost = CostReport['units'][number];

function UnitCostCard({ row }: { row: UnitCost }) {
  return (
    <li className="rounded-lg border border-slate-200 px-3 py-2.5" data-testid="unit-cost-card">
      <div className="flex items-baseline justify-between gap-3">
        <p className="min-w-0 font-medium break-words text-slate-900">{row.unit_name}</p>
        <p className="shrink-0 text-lg font-semibold text-slate-900 tabular-nums">{formatDollars(row.period_cost)}</p>
      </div>
      <p className="mt-1 flex flex-wrap gap-x-4 text-sm font-medium tabular-nums">
        <span className={toneClasses[comparisonTone(row.week_cost, row.period_cost)]}>{`Week: ${formatDollars(row.week_cost)}`}</span>
        <span className={toneClasses[comparisonTone(row.month_cost, row.period_cost)]}>{`Month: ${formatDollars(row.month_cost)}`}</span>
      </p>
    </li>
  );
}

/** Renders the heading and one card per unit, costliest first (the server's order). */
export function UnitCostList({ units }: { units: UnitCost[] }) {
  return (
    <div className="flex flex-col gap-3">
      <h3 className="text-lg font-semibold text-slate-900">Cost by Unit</h3>
      {units.length === 0 ? (
        <p className="py-4 text-center text-base text-slate-500">No units yet</p>
      ) : (
        <ul className="grid gap-2 sm:grid-cols-2">
          {units.map((row) => (
            <UnitCostCard key={row.unit_id} row={row} />
          ))}
        </ul>
      )}
    </div>
  );
}
