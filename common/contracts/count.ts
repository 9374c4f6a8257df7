/**
 * Count mode (stocktake) contracts: POST /api/garages/:id/count and POST /api/units/:id/count
 * (docs/product.md "Screens: Count", docs/decisions/026-stocktake.md). Quantities are whole pieces.
 */
import { z } from 'zod';
import { grouped, wholeNumber } from './fields';

/** Most lines one count may carry: a location rarely holds more than a few hundred items. */
export const MAX_COUNT_LINES = 2000;

/**
 * One counted item: what the count screen showed when the item was counted (`expected`, 0 for an
 * item the location does not hold yet) and what was found (`counted`).
 */
export const countLine = z.strictObject({
  item_id: z.uuid('Each counted line must name an item'),
  expected: wholeNumber('Expected quantity'),
  counted: wholeNumber('Counted quantity'),
});
export type CountLine = z.infer<typeof countLine>;

/**
 * The body of a count: the lines the user counted (rows left out are not part of it). All lines
 * are written in one transaction, or none when the stock of one of them moved after it was
 * counted (409, one issue per line that moved).
 */
export const countBody = z.strictObject({
  lines: z
    .array(countLine)
    .min(1, 'Count at least one item')
    .max(MAX_COUNT_LINES, `A count can have at most ${grouped(MAX_COUNT_LINES)} lines`)
    .refine((lines) => new Set(lines.map((l) => l.item_id)).size === lines.length, 'Each item can be counted only once'),
});
export type CountBody = z.infer<typeof countBody>;

/** One stock row a count changed: its quantity before and after (one `count` movement each). */
export const countedChange = z.object({
  item_id: z.string(),
  item_name: z.string(),
  previous: z.number().int(),
  quantity: z.number().int(),
});
export type CountedChange = z.infer<typeof countedChange>;

/** The answer of a count: the rows it changed, by item name; empty when nothing differed. */
export const countResult = z.object({ changed: z.array(countedChange) });
export type CountResult = z.infer<typeof countResult>;

