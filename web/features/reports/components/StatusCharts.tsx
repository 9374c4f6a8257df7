/**
 * The status charts (docs/product.md "Screens: Reports", "States and transitions"): one horizontal stacked bar per unit and per garage
 * with its stock rows as Sufficient (green), Low Stock (yellow) and Critical (red). Bars run
 * sideways so that fifteen or more names stay readable on a phone.
 */
import { useId, type ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis, type YAxisTickContentProps } from 'recharts';
import type { StatusReport } from '../../../../common/contracts/reports';
import { Card } from '../../../components/ui/Card';
import { STATUS_FAILURE_MESSAGE, useStatusReport } from '../api/get-status-report';
import { wrapLabel } from '../report-format';
import { CardLoadError, CardSpinner } from './CardStates';

type StatusBar = StatusReport['units'][number];

/** The series in the order of the bars, the legend and the tooltip (recharts sorts by name unless told). */
const series = [
  { key: 'sufficient', name: 'Sufficient', colour: '#16a34a' },
  { key: 'low', name: 'Low Stock', colour: '#eab308' },
  { key: 'critical', name: 'Critical', colour: '#dc2626' },
] as const;
const seriesRank = (dataKey: unknown) => series.findIndex((s) => s.key === dataKey);

const ROW_HEIGHT = 44;
/** The legend and the number axis below the bars. */
const CHART_CHROME = 72;
const LABEL_WIDTH = 116;
const LABEL_CHARS = 16;

/** A location's name beside its bar, in up to two lines; the full name as its tooltip. */
function NameTick({ x, y, payload }: YAxisTickContentProps) {
  const name = String(payload.value);
  const lines = wrapLabel(name, LABEL_CHARS);
  // Centre the block of lines on the bar.
  const firstDy = lines.length === 1 ? 4 : -3;
  return (
    <text x={x} y={y} textAnchor="end" fill="#334155" fontSize={12}>
      <title>{name}</title>
      {lines.map((line, index) => (
        <tspan key={index} x={x} dy={index === 0 ? firstDy : 14}>
          {line}
        </tspan>
      ))}
    </text>
  );
}

function StatusBarChart({ bars }: { bars: StatusBar[] }) {
  return (
    <BarChart
      layout="vertical"
      responsive
      style={{ width: '100%', height: bars.length * ROW_HEIGHT + CHART_CHROME }}
      data={bars}
      margin={{ top: 0, right: 8, bottom: 0, left: 0 }}
      barCategoryGap={10}
    >
      <CartesianGrid horizontal={false} strokeDasharray="3 3" stroke="#e2e8f0" />
      <XAxis type="number" allowDecimals={false} tick={{ fontSize: 12, fill: '#475569' }} />
      <YAxis
        type="category"
        dataKey="name"
        width={LABEL_WIDTH}
        interval={0}
        tick={(props: YAxisTickContentProps) => <NameTick {...props} />}
      />
      {/* Dark text: the yellow of Low Stock is too faint to read as letters. */}
      <Tooltip cursor={{ fill: '#f1f5f9' }} itemStyle={{ color: '#1e293b' }} itemSorter={(item) => seriesRank(item.dataKey)} />
      <Legend itemSorter={null} wrapperStyle={{ fontSize: 14 }} formatter={(name) => <span className="text-slate-700">{name}</span>} />
      {series.map((s) => (
        <Bar key={s.key} dataKey={s.key} name={s.name} stackId="status" fill={s.colour} />
      ))}
    </BarChart>
  );
}

function StatusChartCard({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Card aria-labelledby={headingId} className="flex flex-col gap-3 p-4 sm:p-6" data-testid={testId}>
      <h2 id={headingId} className="text-xl font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </Card>
  );
}

/** Renders 'Unit Inventory Status' and 'Garage Inventory Status' from one request. */
export function StatusCharts() {
  const status = useStatusReport();

  const chartOf = (bars: StatusBar[] | undefined, emptyText: string) => {
    if (!bars) {
      return status.isError ? (
        <CardLoadError error={status.error} fallback={STATUS_FAILURE_MESSAGE} onRetry={() => void status.refetch()} />
      ) : (
        <CardSpinner />
      );
    }
    if (bars.length === 0) return <p className="py-8 text-center text-base text-slate-500">{emptyText}</p>;
    return <StatusBarChart bars={bars} />;
  };

  return (
    <>
      <StatusChartCard title="Unit Inventory Status" testId="unit-status-chart">
        {chartOf(status.data?.units, 'No units yet')}
      </StatusChartCard>
      <StatusChartCard title="Garage Inventory Status" testId="garage-status-chart">
        {chartOf(status.data?.garages, 'No garages yet')}
      </StatusChartCard>
    </>
  );
}
