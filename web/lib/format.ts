/** Display formatting shared by screens; times are shown in the browser's zone (DESIGN.md §2). */

/** An ISO 8601 timestamp as local date and time, e.g. "3/14/2025, 9:30:00 AM". */
export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString();
}

/** A quantity change with its sign: "+3", "-2", "0". */
export function formatSignedQuantity(change: number): string {
  return change > 0 ? `+${change}` : String(change);
}
