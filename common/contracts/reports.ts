/**
 * Reports contracts (docs/product.md "Screens: Reports" and "Reports"; unit costs and cost trends
 * in "Server rules"; report types in "Constants and limits"; usage in "Stock movements and
 * statuses"). Every number is computed by the server from the
 * ledger: usage is every decrease of a unit's stock that is not a transfer (consumption and
 * negative counts), costed at the movement's unit cost. Dates are UTC days (YYYY-MM-DD);
 * money is dollars rounded to cents.
 */
import { utc } from '@date-fns/utc';
import { addHours, differenceInCalendarDays } from 'date-fns';
import { z } from 'zod';
import { calendarDate, EARLIEST_REPORT_DATE, MAX_REPORT_DAYS } from './fields';

const isoDay = z.iso.date();

/**
 * Today in the time zone furthest ahead of UTC (UTC+14): no browser's "today", which the date
 * inputs offer as their maximum, is later than this.
 */
const latestToday = (): string => addHours(Date.now(), 14).toISOString().slice(0, 10);

/**
 * GET /api/reports/costs query: Last Week (7 days), Last Month (30 days) or a custom range of whole
 * UTC days (docs/decisions/011-input-limits.md): real calendar dates, start not after end, from
 * 2000-01-01 and not in the future (by the wall clock), at most {@link MAX_REPORT_DAYS} days
 * both ends included. Each problem is one issue on the field concerned.
 */
export const costQuery = z
  .strictObject({
    period: z.enum(['week', 'month', 'custom']).default('week'),
    start: calendarDate('Start date').optional(),
    end: calendarDate('End date').optional(),
  })
  .superRefine((q, ctx) => {
    if (q.period !== 'custom') return;
    const issue = (path: 'start' | 'end', message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (!q.start || !q.end) return issue('start', 'Please select both start and end dates');
    // A date that is not a real day already has its issue; comparing it would only add noise.
    if (!isoDay.safeParse(q.start).success || !isoDay.safeParse(q.end).success) return;
    if (q.start > q.end) issue('start', 'Start date must be before end date');
    else if (q.start < EARLIEST_REPORT_DATE) issue('start', `Start date must be ${EARLIEST_REPORT_DATE} or later`);
    else if (q.end > latestToday()) issue('end', 'End date cannot be in the future');
    else if (differenceInCalendarDays(q.end, q.start, { in: utc }) >= MAX_REPORT_DAYS) {
      issue('end', `A custom range can cover at most ${MAX_REPORT_DAYS} days`);
    }
  });
export type CostQuery = z.infer<typeof costQuery>;

/**
 * One day of the cost trend (the cost trend row of docs/product.md "Entities"); days without
 * usage are zeros.
 */
export const costTrendRow = z.object({ date: isoDay, total_cost: z.number(), total_items: z.number().int() });

/**
 * The unit cost row of docs/product.md "Entities": the period's cost, and the last 7 and 30 days'
 * for comparison.
 */
export const unitCostRow = z.object({
  unit_id: z.string(),
  unit_name: z.string(),
  period_cost: z.number(),
  week_cost: z.number(),
  month_cost: z.number(),
});

export const costReport = z.object({
  /** ISO 8601 UTC instants: start inclusive, end exclusive. */
  start: z.string(),
  end: z.string(),
  total_cost: z.number(),
  total_items: z.number().int(),
  trend: z.array(costTrendRow),
  units: z.array(unitCostRow),
});
export type CostReport = z.infer<typeof costReport>;

/** Stock status counts of one location for the stacked bars. */
export const statusBar = z.object({
  id: z.string(),
  name: z.string(),
  sufficient: z.number().int(),
  low: z.number().int(),
  critical: z.number().int(),
});

/**
 * GET /api/reports/status — units by derived status (threshold rule), garages by the spec's
 * fixed buckets (> 20 sufficient, > 10 low, else critical).
 */
export const statusReport = z.object({ units: z.array(statusBar), garages: z.array(statusBar) });
export type StatusReport = z.infer<typeof statusReport>;

export const reportTypes = ['summary', 'critical', 'usage', 'reorder', 'expenses', 'waste'] as const;
export type ReportType = (typeof reportTypes)[number];

/** Labels of the report types (docs/product.md "Constants and limits"). */
export const reportTypeLabels: Record<ReportType, string> = {
  summary: 'Supply Overview & Insights',
  critical: 'Critical Supply Alerts',
  usage: 'Usage Analysis Per Stay',
  reorder: 'Restock Recommendations',
  expenses: 'Supply Cost Analysis',
  waste: 'Waste & Optimization Report',
};

export const reportDays = [7, 14, 30, 90] as const;
export const reportLimits = [25, 50, 100, 200] as const;

/** POST /api/reports/assistant body: type, time range in days, and at most this many CSV records. */
export const assistantBody = z.strictObject({
  type: z.enum(reportTypes),
  days: z.union(reportDays.map((d) => z.literal(d)) as [z.ZodLiteral<7>, z.ZodLiteral<14>, z.ZodLiteral<30>, z.ZodLiteral<90>]).default(7),
  limit: z
    .union(reportLimits.map((d) => z.literal(d)) as [z.ZodLiteral<25>, z.ZodLiteral<50>, z.ZodLiteral<100>, z.ZodLiteral<200>])
    .default(50),
});
export type AssistantBody = z.infer<typeof assistantBody>;

/**
 * The assistant's reply: `text` is markdown (a narrative by the language model when one is
 * configured and answered, else a plain summary); `csv` always comes from the server's own
 * computation (header row, then at most `limit` records ordered by importance).
 */
export const assistantReply = z.object({
  type: z.enum(reportTypes),
  text: z.string(),
  csv: z.string(),
  /** Records in the CSV (header excluded). */
  records: z.number().int(),
  /** True when the text was written by the language model. */
  ai_narrative: z.boolean(),
});
export type AssistantReply = z.infer<typeof assistantReply>;
