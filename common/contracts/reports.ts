/**
 * Reports contracts (SPEC.md "Reports", §7 calculate_all_unit_costs / get_cost_trends, §9
 * report types; DESIGN.md §4 "Usage", §7). Every number is computed by the server from the
 * ledger: usage is every decrease of a unit's stock that is not a transfer (consumption and
 * negative counts), costed at the ledger row's unit cost. Dates are UTC days (YYYY-MM-DD);
 * money is dollars rounded to cents.
 */
import { z } from 'zod';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use the format YYYY-MM-DD');

/** GET /api/reports/costs query: Last Week (7 days), Last Month (30 days) or a custom range of whole days. */
export const costQuery = z
  .object({
    period: z.enum(['week', 'month', 'custom']).default('week'),
    start: isoDate.optional(),
    end: isoDate.optional(),
  })
  .superRefine((q, ctx) => {
    if (q.period !== 'custom') return;
    if (!q.start || !q.end) ctx.addIssue({ code: 'custom', path: ['start'], message: 'Please select both start and end dates' });
    else if (q.start > q.end) ctx.addIssue({ code: 'custom', path: ['start'], message: 'Start date must be before end date' });
  });
export type CostQuery = z.infer<typeof costQuery>;

/** One day of the cost trend (SPEC.md §3 "Cost trend row"); days without usage are zeros. */
export const costTrendRow = z.object({ date: isoDate, total_cost: z.number(), total_items: z.number().int() });

/** SPEC.md §3 "Unit cost row": the period's cost, and the last 7 and 30 days' for comparison. */
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

/** Labels of the report types (SPEC.md §9). */
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
export const assistantBody = z.object({
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
