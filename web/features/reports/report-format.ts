/**
 * How the Reports screen shows its numbers: the trend's UTC days, the week and month figures of
 * a unit against its period cost (docs/product.md "Screens: Reports": red when above, else green), and unit names
 * wrapped to fit beside a bar on a phone.
 */

// The trend's dates are UTC days (common/contracts/reports.ts); shown in UTC they stay the same day
// wherever the browser is.
const shortDay = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric' });
const longDay = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' });
const rangeDay = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' });

function utcDay(isoDate: string): Date {
  return new Date(`${isoDate}T00:00:00Z`);
}

/** A UTC day for an axis tick, e.g. '2025-03-14' -> 'Mar 14'. */
export function formatShortDay(isoDate: string): string {
  return shortDay.format(utcDay(isoDate));
}

/** A UTC day in full, e.g. '2025-03-14' -> 'Fri, Mar 14, 2025'. */
export function formatLongDay(isoDate: string): string {
  return longDay.format(utcDay(isoDate));
}

/** The days a report covers, e.g. 'Mar 8 – 14, 2025'; one day alone when both are the same. */
export function formatDayRange(first: string, last: string): string {
  return rangeDay.formatRange(utcDay(first), utcDay(last));
}

/** 'above' when a unit's week or month cost exceeds its cost for the chosen period (shown red), else 'within' (green). */
export function comparisonTone(amount: number, periodCost: number): 'above' | 'within' {
  return amount > periodCost ? 'above' : 'within';
}

/**
 * `name` in at most two lines of about `maxChars` characters, broken between words where it can;
 * what does not fit ends with '…'.
 */
export function wrapLabel(name: string, maxChars: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of name.trim().split(/\s+/)) {
    const next = line ? `${line} ${word}` : word;
    if (next.length <= maxChars || !line) {
      line = next;
      continue;
    }
    lines.push(line);
    line = word;
  }
  if (line) lines.push(line);
  const shown = lines.slice(0, 2).map((text) => (text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text));
  if (lines.length > 2) {
    const last = shown[1]!;
    shown[1] = last.length >= maxChars ? `${last.slice(0, maxChars - 1)}…` : `${last}…`;
  }
  return shown;
}
