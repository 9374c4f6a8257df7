/**
 * Field schemas shared by API bodies and web forms. Parse rules: SPEC.md §5 — counts and
 * thresholds are whole numbers >= 0; money is dollars with at most 2 decimals, >= 0.
 */
import { z } from 'zod';

/** A trimmed, non-empty string of at most 200 characters; `message` when empty. */
export const requiredText = (message: string) => z.string().trim().min(1, message).max(200);

/** A whole number >= 0 (quantities, thresholds). */
export const nonNegativeInt = z.number().int('Must be a whole number').min(0, 'Must be 0 or more').max(1_000_000_000);

/** Dollars, >= 0, at most 2 decimals (e.g. 12.5). */
export const moneyInput = z
  .number()
  .min(0, 'Must be 0 or more')
  .max(9_999_999_999.99)
  .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, 'At most 2 decimals');

/** A uuid path parameter; anything else is answered 404 like an unknown id (server error handler). */
export const idParam = z.object({ id: z.uuid() });
