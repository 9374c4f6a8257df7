/**
 * The cost card's line chart (docs/product.md "Screens: Reports"): one point per UTC day, the cost in dollars on
 * the left axis and the items used on the right; days without usage are zeros from the server.
 */
import { CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import type { CostReport } from '../../../../common/contracts/reports';
import { formatDollars } from '../../../lib/format';
import { formatLongDay, formatShortDay } from '../report-format';

const COST_COLOUR = '#1d4ed8';
const ITEMS_COLOUR = '#7c3aed';
const COST_NAME = 'Cost ($)';
const ITEMS_NAME = 'Items Used';
const TICK = { fontSize: 12 };

/** Renders the chart over the width of its container. */
export function CostTrendChart({ trend }: { trend: CostReport['trend'] }) {
  // Dots help to read a week; on a month or longer they only crowd the lines.
  const dots = trend.length <= 14;
  return (
    <div data-testid="cost-chart">
      {/* The axes' names above them: rotated labels inside the axes would crowd a phone's narrow chart. */}
      <div className="mb-1 flex justify-between text-xs font-medium" aria-hidden="true">
        <span style={{ color: COST_COLOUR }}>{COST_NAME}</span>
        <span style={{ color: ITEMS_COLOUR }}>{ITEMS_NAME}</span>
      </div>
      <LineChart responsive style={{ width: '100%', height: 288 }} data={trend} margin={{ top: 8, right: 0, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
        <XAxis dataKey="date" tickFormatter={formatShortDay} tick={{ ...TICK, fill: '#475569' }} minTickGap={12} />
        <YAxis
          yAxisId="cost"
          tickFormatter={(value: number) => `$${value}`}
          tick={{ ...TICK, fill: COST_COLOUR }}
          width={56}
        />
        <YAxis
          yAxisId="items"
          orientation="right"
          allowDecimals={false}
          tick={{ ...TICK, fill: ITEMS_COLOUR }}
          width={44}
        />
        <Tooltip
          labelFormatter={(label) => formatLongDay(String(label))}
          formatter={(value, name) => (name === COST_NAME ? formatDollars(Number(value)) : value)}
        />
        <Legend itemSorter={null} wrapperStyle={{ fontSize: 14 }} />
        <Line yAxisId="cost" type="monotone" dataKey="total_cost" name={COST_NAME} stroke={COST_COLOUR} strokeWidth={2} dot={dots} />
        <Line yAxisId="items" type="monotone" dataKey="total_items" name={ITEMS_NAME} stroke={ITEMS_COLOUR} strokeWidth={2} dot={dots} />
      </LineChart>
    </div>
  );
}
