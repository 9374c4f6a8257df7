/**
 * Numbers typed into inputs, read as docs/product.md "Validation rules" says: empty or not a
 * number reads as 0; anything else is read as written, fractions included, so that a field taking
 * whole numbers refuses 2.5 with its message instead of saving 2.
 */
import { z } from 'zod';

/** `text` as a number (decimals kept); 0 when it is empty or not a number. */
export function parseNumber(text: string): number {
  const value = Number.parseFloat(text);
  return Number.isNaN(value) ? 0 : value;
}

/** Input text -> the number `field` accepts (a field schema of common/contracts), with its messages. */
export const numberText = <T extends z.ZodType<number, number>>(field: T) => z.string().transform(parseNumber).pipe(field);
