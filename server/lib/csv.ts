/**
 * CSV for spreadsheets (docs/decisions/012-report-injections.md): RFC 4180 quoting by
 * csv-stringify, and no cell a spreadsheet would run as a formula. Every CSV the server hands out
 * goes through {@link toCsv}; the web downloads those bytes unchanged.
 */
import { stringify } from 'csv-stringify/sync';

/**
 * First characters that make Excel, LibreOffice Calc or Google Sheets read a cell as a formula
 * (OWASP, "CSV Injection"): = + - @, tab and carriage return.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A number as SQL prints numeric or integer values as text, e.g. '45.50', '-3', '0'. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * A text cell as a spreadsheet must show it: when it starts with a formula character it gets a
 * leading single quote (OWASP's advice; spreadsheets take the quote as "this is text"), unless it
 * is a plain decimal number ('-3', '45.50'), which stays a number. JavaScript numbers never pass
 * through here: they are always values.
 */
export function spreadsheetText(cell: string): string {
  return FORMULA_START.test(cell) && !PLAIN_NUMBER.test(cell) ? `'${cell}` : cell;
}

/** CSV text: the header row, then the rows; text cells through {@link spreadsheetText}. */
export function toCsv(columns: string[], rows: (string | number)[][]): string {
  return stringify([columns, ...rows], { cast: { string: spreadsheetText } });
}
