/**
 * The cost-analysis card (docs/product.md "Screens: Reports"): Last Week, Last Month or a Custom Range applied
 * with 'Apply Filter'; the period's total, the daily cost and items used, and the cost by unit.
 */
import { useId, useState, type FormEvent } from 'react';
import type { CostQuery, CostReport } from '../../../../common/contracts/reports';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { FormAlert } from '../../../components/ui/FormAlert';
import { SelectField } from '../../../components/ui/SelectField';
import { TextField } from '../../../components/ui/TextField';
import { formatDollars } from '../../../lib/format';
import { costFailureMessage, useCostReport } from '../api/get-cost-report';
import { customRangeQuery, localIsoDate, periodOptions, type CostPeriod } from '../cost-period';
import { formatDayRange } from '../report-format';
import { CardLoadError, CardSpinner } from './CardStates';
import { CostTrendChart } from './CostTrendChart';
import { UnitCostList } from './UnitCostList';

interface CustomRangeFormProps {
  onApply: (query: CostQuery) => void;
}

/** The two dates (at most today) and 'Apply Filter'; a missing or reversed date is told above them. */
function CustomRangeForm({ onApply }: CustomRangeFormProps) {
  const id = useId();
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [error, setError] = useState<string>();
  const today = localIsoDate(new Date());

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const result = customRangeQuery(start, end);
    if ('error' in result) {
      setError(result.error);
      return;
    }
    setError(undefined);
    onApply(result.query);
  };

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3">
      <FormAlert message={error} />
      <div className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
        <TextField
          id={`${id}-start`}
          label="Start Date"
          type="date"
          max={today}
          value={start}
          invalid={Boolean(error)}
          onChange={(event) => setStart(event.target.value)}
        />
        <TextField
          id={`${id}-end`}
          label="End Date"
          type="date"
          max={today}
          value={end}
          invalid={Boolean(error)}
          onChange={(event) => setEnd(event.target.value)}
        />
        <Button type="submit">Apply Filter</Button>
      </div>
    </form>
  );
}

function CostSummary({ report }: { report: CostReport }) {
  const first = report.trend[0]?.date;
  const last = report.trend[report.trend.length - 1]?.date;
  return (
    <>
      {first && last && <p className="text-sm text-slate-600">{formatDayRange(first, last)}</p>}
      <dl className="grid grid-cols-2 gap-3">
        <div className="rounded-lg bg-slate-50 px-3 py-2">
          <dt className="text-sm text-slate-600">Total Cost</dt>
          <dd className="text-2xl font-bold text-slate-900 tabular-nums" data-testid="period-total">
            {formatDollars(report.total_cost)}
          </dd>
        </div>
        <div className="rounded-lg bg-slate-50 px-3 py-2">
          <dt className="text-sm text-slate-600">Items Used</dt>
          <dd className="text-2xl font-bold text-slate-900 tabular-nums">{report.total_items}</dd>
        </div>
      </dl>
      <CostTrendChart trend={report.trend} />
      {report.total_items === 0 && <p className="-mt-2 text-center text-sm text-slate-500">No supplies were used in this period.</p>}
      <UnitCostList units={report.units} />
    </>
  );
}

/** Renders the card; it starts on Last Week (docs/product.md "Constants and limits"). */
export function CostAnalysisCard() {
  const id = useId();
  const [period, setPeriod] = useState<CostPeriod>('week');
  const [applied, setApplied] = useState<CostQuery>({ period: 'week' });
  const report = useCostReport(applied);

  const choosePeriod = (next: CostPeriod) => {
    setPeriod(next);
    // Week and month apply at once; a custom range waits for its dates and 'Apply Filter'.
    if (next !== 'custom') setApplied({ period: next });
  };

  let content;
  if (!report.data) {
    content = report.isError ? (
      <CardLoadError
        error={report.error}
        fallback={costFailureMessage(applied)}
        onRetry={() => void report.refetch()}
      />
    ) : (
      <CardSpinner />
    );
  } else {
    content = <CostSummary report={report.data} />;
  }

  return (
    <Card aria-labelledby={`${id}-heading`} className="flex flex-col gap-4 p-4 sm:p-6" data-testid="cost-analysis">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <h2 id={`${id}-heading`} className="text-xl font-semibold text-slate-900">
          Cost Analysis
        </h2>
        <SelectField
          id={`${id}-period`}
          label="Period"
          value={period}
          onChange={(event) => choosePeriod(event.target.value as CostPeriod)}
          className="sm:w-48"
        >
          {periodOptions.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </SelectField>
      </div>
      {period === 'custom' && <CustomRangeForm onApply={setApplied} />}
      {content}
    </Card>
  );
}
