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
