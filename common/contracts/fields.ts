/**
 * Field schemas shared by API bodies and web forms, and the input limits they enforce
 * (docs/decisions/011-input-limits.md). Parse rules: docs/product.md "Validation rules" — counts
 * and thresholds are whole numbers >= 0; money is dollars with at most 2 decimals, >= 0.
 */
import { z } from 'zod';

/** Longest text field, in characters (UTF-16 code units, what JavaScript's length counts). */
export const MAX_TEXT_LENGTH = 200;

/** Largest quantity or threshold one request may carry (a stock line, an Add Manually). */
export const MAX_QUANTITY = 1_000_000;

/**
 * Largest quantity one stock row may hold, enforced by the database (CHECK constraints
 * `*_inventory_quantity_max`, migration 0009): a write that would pass it changes nothing.
 * Chosen so that a row at the maximum plus any other row, or plus one request, still fits the
 * 32-bit `quantity` columns, and a row's worth at the maximum cost (10^15 cents) is an exact
 * JavaScript number.
 */
export const MAX_STOCK_QUANTITY = 10_000_000;

/** Largest unit cost (count_cost), in dollars; also a CHECK constraint on items (migration 0009). */
export const MAX_UNIT_COST = 1_000_000;

/** Earliest day a report may ask for (custom ranges). */
export const EARLIEST_REPORT_DATE = '2000-01-01';

/** Longest custom report range, in days, both ends included. */
export const MAX_REPORT_DAYS = 366;

/** `n` written with thousands separators, as messages show limits ("1,000,000"). */
export const grouped = (n: number): string => n.toLocaleString('en-US');

/**
 * C0 and C1 control characters (NUL, ESC, DEL, ...) and unpaired UTF-16 surrogates: PostgreSQL
 * refuses NUL in text ("invalid byte sequence"), and none of them belong in a name or address.
 * Tab and newline are controls too: no field takes more than one line today.
 */
const CONTROL_OR_BROKEN = /[\p{Cc}\p{Cs}]/u;

/**
 * A trimmed, non-empty, single-line string of at most {@link MAX_TEXT_LENGTH} characters.
 * `label` names the field in the messages ("Name must not contain control characters");
 * `requiredMessage` is the text docs/product.md "Validation rules" gives for an empty field.
 */
export const requiredText = (label: string, requiredMessage: string) =>
  z
    .string()
    .trim()
    .min(1, requiredMessage)
    .max(MAX_TEXT_LENGTH, `${label} must be at most ${MAX_TEXT_LENGTH} characters`)
    .refine((s) => !CONTROL_OR_BROKEN.test(s), `${label} must not contain control characters`);

/**
 * A whole number from `min` to {@link MAX_QUANTITY} (quantities, thresholds); `label` names the
 * field in the messages ("Quantity must be a whole number", "Quantity must be at least 1").
 */
export const wholeNumber = (label: string, min = 0) =>
  z
    .number(`${label} must be a number`)
    .int(`${label} must be a whole number`)
    .min(min, min === 0 ? `${label} must be 0 or more` : `${label} must be at least ${min}`)
    .max(MAX_QUANTITY, `${label} must be at most ${grouped(MAX_QUANTITY)}`);

/**
 * Dollars from 0 to {@link MAX_UNIT_COST}, at most 2 decimals (e.g. 12.5); `label` names the field
 * in the messages ("Count cost can have at most 2 decimals").
 */
export const money = (label: string) =>
  z
    .number(`${label} must be a number`)
    .min(0, `${label} must be 0 or more`)
    .max(MAX_UNIT_COST, `${label} must be at most $${grouped(MAX_UNIT_COST)}`)
    .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, `${label} can have at most 2 decimals`);

/** Largest default usage per stay of an item, in pieces; also a CHECK constraint on items (migration 0022). */
export const MAX_USAGE_PER_STAY = 100_000;

/**
 * Pieces per stay from 0 to {@link MAX_USAGE_PER_STAY}, at most 2 decimals (1.5 rolls of toilet
 * paper); `label` names the field in the messages ("Usage per stay can have at most 2 decimals").
 */
export const usagePerStay = (label: string) =>
  z
    .number(`${label} must be a number`)
    .min(0, `${label} must be 0 or more`)
    .max(MAX_USAGE_PER_STAY, `${label} must be at most ${grouped(MAX_USAGE_PER_STAY)}`)
    .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, `${label} can have at most 2 decimals`);

/**
 * A real calendar day 'YYYY-MM-DD' (2024-02-29 yes, 2023-02-29 and 2024-02-30 no); `label`
 * names the field in the message.
 */
export const calendarDate = (label: string) => z.iso.date(`${label} must be a real date (YYYY-MM-DD)`);

/** A uuid path parameter; anything else is answered 404 like an unknown id (server error handler). */
export const idParam = z.object({ id: z.uuid() });
