/** Display formatting shared by screens; times are shown in the browser's zone (docs/ARCHITECTURE.md "The parts"). */

/** An ISO 8601 timestamp as local date and time, e.g. "3/14/2025, 9:30:00 AM". */
export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString();
}

/** A quantity change with its sign: "+3", "-2", "0". */
export function formatSignedQuantity(change: number): string {
  return change > 0 ? `+${change}` : String(change);
}

// Made on first use: building the first Intl formatter loads the browser's locale data, tens of
// milliseconds on a slow phone, and the dashboard, whose code includes this module, shows no money.
let dollars: Intl.NumberFormat | undefined;

/** Dollars with 2 decimals, e.g. "$1,234.50"; a missing amount shows as "$0.00" (docs/product.md "Screens: Items"). */
export function formatDollars(amount: number | null | undefined): string {
  dollars ??= new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return dollars.format(amount ?? 0);
}

/**
 * A calendar day 'YYYY-MM-DD' as 'Fri, Nov 27': the day of the property or company it belongs to,
 * shown as written, never moved into the browser's time zone (docs/product.md "Screens: Forecast").
 */
export function formatCalendarDay(ymd: string): string {
  const [year = 1970, month = 1, day = 1] = ymd.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day)).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/**
 * A learned usage of pieces per stay as 'about 2.1 per stay', one decimal at most ('about 2 per
 * stay'), 'less than 0.1 per stay' below a tenth (docs/product.md "Screens: Forecast").
 */
export function formatPerStay(perStay: number): string {
  if (perStay > 0 && perStay < 0.05) return 'less than 0.1 per stay';
  return `about ${Math.round(perStay * 10) / 10} per stay`;
}
