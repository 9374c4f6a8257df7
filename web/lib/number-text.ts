/**
 * Numbers typed into inputs, read as docs/product.md "Validation rules" says: whole numbers in base 10 and dollar amounts
 * as decimals, where text that is not a number counts as 0.
 */
import { z } from 'zod';
import { moneyInput, nonNegativeInt } from '../../common/contracts/fields';

/** `text` as a whole number in base 10 (fractions cut off); 0 when it is not a number. */
export function parseWholeNumber(text: string): number {
  const value = Number.parseInt(text, 10);
  return Number.isNaN(value) ? 0 : value;
}

/** `text` as a decimal number of dollars; 0 when it is not a number. */
export function parseMoney(text: string): number {
  const value = Number.parseFloat(text);
  return Number.isNaN(value) ? 0 : value;
}

/** Input text -> whole number >= 0 (thresholds, counts). */
export const wholeNumberText = z.string().transform(parseWholeNumber).pipe(nonNegativeInt);

/** Input text -> dollars >= 0 with at most 2 decimals. */
export const moneyText = z.string().transform(parseMoney).pipe(moneyInput);
