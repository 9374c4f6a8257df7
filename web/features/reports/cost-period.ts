/**
 * The cost card's period (docs/product.md "Screens: Reports", "Validation rules", custom date range): Last Week, Last Month or a
 * custom range of whole days, checked in the browser with the server's own contract before the
 * range is sent.
 */
import { costQuery, type CostQuery } from '../../../common/contracts/reports';

export type CostPeriod = CostQuery['period'];

/** The period selector's options, in order (Last Week is the default, docs/product.md "Constants and limits"). */
export const periodOptions: { value: CostPeriod; label: string }[] = [
  { value: 'week', label: 'Last Week' },
  { value: 'month', label: 'Last Month' },
  { value: 'custom', label: 'Custom Range' },
];

/**
 * The query of a custom range from the two date inputs (YYYY-MM-DD, '' when empty), or the
 * message saying what is wrong: 'Please select both start and end dates' or 'Start date must be
 * before end date' (the same day twice is a one-day range).
 */
export function customRangeQuery(start: string, end: string): { query: CostQuery } | { error: string } {
  const parsed = costQuery.safeParse({ period: 'custom', start: start || undefined, end: end || undefined });
  if (parsed.success) return { query: parsed.data };
  return { error: parsed.error.issues[0]?.message ?? 'Please select both start and end dates' };
}

/** `date` as YYYY-MM-DD in the browser's zone: "today" for the date inputs and the CSV file name. */
export function localIsoDate(date: Date): string {
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${date.getFullYear()}-${month}-${day}`;
}
