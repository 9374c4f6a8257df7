/**
 * Stock API contracts: items, garages (storage), units (properties) and their stock rows
 * (docs/product.md "Screens: Units", "Screens: Add Unit", "Screens: Unit detail", "Screens: Garages",
 * "Screens: Items", "Entities", "Validation rules", "Stock movements and statuses").
 * Money is dollars (numbers rounded to cents); quantities are whole numbers >= 0.
 */
import { z } from 'zod';
import { grouped, money, requiredText, usagePerStay, wholeNumber } from './fields';
import { SERVICE_LEVEL_MESSAGE, SERVICE_LEVELS } from './forecast';

export const stockStatuses = ['sufficient', 'low', 'critical'] as const;
export type StockStatus = (typeof stockStatuses)[number];

/** A stock row holding this quantity or less is critical (docs/product.md "Stock movements and statuses"). */
export const CRITICAL_AT_OR_BELOW = 0;

/**
 * Status of a stock row (docs/product.md "Stock movements and statuses"): quantity <=
 * CRITICAL_AT_OR_BELOW critical, <= the item's minimum threshold low, otherwise sufficient.
 * Computed live in forms; the server's SQL form is `stockStatusSql` in
 * server/modules/stock/rules.ts, built from the same constant and tested against this one.
 */
export function stockStatus(quantity: number, minimumThreshold: number): StockStatus {
  if (quantity <= CRITICAL_AT_OR_BELOW) return 'critical';
  if (quantity <= minimumThreshold) return 'low';
  return 'sufficient';
}

/**
 * Below minimum (docs/product.md "Stock movements and statuses", "Restock to minimum"; "Forecast",
 * **below minimum**): a stock of `quantity` pieces holds less than the item's minimum threshold
 * `minimum` (pieces), `quantity < minimum`. Narrower than 'low' (`quantity <= minimum`, see
 * {@link stockStatus}): a row at exactly its minimum is low but not below it, and Restock to
 * minimum leaves it as it is. Either number may be fractional (the forecast's projected stock).
 * The server's SQL form is `belowMinimumSql` in server/modules/stock/rules.ts (the SQL function
 * `stock_below_minimum`, migration 0025), tested against this one.
 */
export function isBelowMinimum(quantity: number, minimum: number): boolean {
  return quantity < minimum;
}

/**
 * What to order for a garage (docs/product.md "Pick lists", **To order**: "the order: needed +
 * the item's minimum threshold − the garage's stock, never below 0"): the pieces that cover
 * `needed` (what its properties need brought over the lead time) and still leave the garage its
 * `minimum` (the item's minimum threshold) once `onHand` (its stock now) is counted. All whole
 * pieces; the answer is a whole number >= 0. The Restock Recommendations report
 * (docs/product.md "Reports", `reorder`) is another rule on purpose: it plans from past usage
 * without stays (server/modules/reports/assistant/reorder.ts).
 */
export function orderQuantity({ needed, minimum, onHand }: { needed: number; minimum: number; onHand: number }): number {
  return Math.max(0, needed + minimum - onHand);
}

// ---- Items ---------------------------------------------------------------------------------

export const item = z.object({
  id: z.string(),
  name: z.string(),
  category: z.string(),
  minimum_threshold: z.number().int(),
  /** Dollars. */
  count_cost: z.number(),
  /**
   * Pieces a stay uses when the company has no usage of the item yet (docs/product.md "Forecast");
   * null: none. The server always sends it; optional so that answers built before it still parse.
   */
  usage_per_stay_default: z.number().nullable().optional(),
  /**
   * The item's own service level, percent (SERVICE_LEVELS): the least chance its pick-list lines
   * give it; null: the company's. Optional as `usage_per_stay_default` is.
   */
  service_level: z.number().int().nullable().optional(),
});
export type Item = z.infer<typeof item>;

/**
 * The refusal of an item name the company already uses, compared without regard to case
 * (docs/product.md "Validation rules"): 'An item named Bath Towel already exists'.
 */
export const itemNameTaken = (name: string): string => `An item named ${name} already exists`;

/** The first name of `names` that an earlier one already uses, compared without regard to case. */
export function repeatedItemName(names: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const name of names) {
    const key = name.toLowerCase();
    if (seen.has(key)) return name;
    seen.add(key);
  }
  return undefined;
}

/** POST /api/items, PATCH /api/items/:id. */
export const itemBody = z.strictObject({
  name: requiredText('Name', 'Please fill out all fields'),
  category: requiredText('Category', 'Please fill out all fields'),
  minimum_threshold: wholeNumber('Minimum threshold').default(0),
  count_cost: money('Count cost').default(0),
  /** Left out: unchanged on an edit, none on a create; null clears it. */
  usage_per_stay_default: usagePerStay('Usage per stay').nullable().optional(),
  /** Left out: unchanged on an edit, the company's on a create; null: the company's. */
  service_level: z.literal(SERVICE_LEVELS, { error: SERVICE_LEVEL_MESSAGE }).nullable().optional(),
});
export type ItemBody = z.infer<typeof itemBody>;

// ---- Stock rows ----------------------------------------------------------------------------

/** One requested stock line: item and whole quantity >= 0. */
export const stockLine = z.strictObject({ item_id: z.uuid('Please select an item'), quantity: wholeNumber('Quantity') });
export type StockLine = z.infer<typeof stockLine>;

/** Most stock lines one request may carry. */
export const MAX_STOCK_LINES = 1000;

/** Stock lines naming each item at most once. */
export const stockLines = z
  .array(stockLine)
  .max(MAX_STOCK_LINES, `At most ${grouped(MAX_STOCK_LINES)} stock lines`)
  .refine((lines) => new Set(lines.map((l) => l.item_id)).size === lines.length, 'Each item can appear only once');

export const garageStockRow = z.object({
  item_id: z.string(),
  item_name: z.string(),
  quantity: z.number().int(),
});

export const unitStockRow = z.object({
  id: z.string(),
  item_id: z.string(),
  item_name: z.string(),
  quantity: z.number().int(),
  minimum_threshold: z.number().int(),
  status: z.enum(stockStatuses),
});
export type UnitStockRow = z.infer<typeof unitStockRow>;

// ---- Garages -------------------------------------------------------------------------------

export const garage = z.object({
  id: z.string(),
  name: z.string(),
  address: z.string(),
  inventory: z.array(garageStockRow),
});
export type Garage = z.infer<typeof garage>;

/** Longest lead time of a garage, in days; also a CHECK constraint on garages (migration 0022). */
export const MAX_LEAD_TIME_DAYS = 365;

/** POST /api/garages — the garage with its initial inventory (docs/product.md "Screens: Garages"). */
export const createGarageBody = z.strictObject({
  name: requiredText('Name', 'Please fill out all fields'),
  address: requiredText('Address', 'Please fill out all fields'),
  inventory: stockLines.default([]),
});
export type CreateGarageBody = z.infer<typeof createGarageBody>;

/** PATCH /api/garages/:id — inline edit. */
export const updateGarageBody = z.strictObject({
  name: requiredText('Name', 'Please fill out all fields'),
  address: requiredText('Address', 'Please fill out all fields'),
  /** Days an order for the garage takes to arrive (docs/product.md "Pick lists", to order); left out: unchanged. */
  lead_time_days: z
    .number('Lead time must be a number')
    .int('Lead time must be a whole number of days')
    .min(0, 'Lead time must be 0 or more')
    .max(MAX_LEAD_TIME_DAYS, `Lead time must be at most ${MAX_LEAD_TIME_DAYS} days`)
    .optional(),
});
export type UpdateGarageBody = z.infer<typeof updateGarageBody>;

/**
 * PUT /api/garages/:id/inventory — the API's inventory replace: the garage's stock becomes exactly
 * these lines (rows left out go to 0 and are removed), each change recorded as a `count` movement.
 */
export const garageInventoryBody = z.strictObject({ inventory: stockLines });
export type GarageInventoryBody = z.infer<typeof garageInventoryBody>;

// ---- Units ---------------------------------------------------------------------------------

export const unitGarage = z.object({ id: z.string(), name: z.string(), address: z.string() }).nullable();

export const unit = z.object({
  id: z.string(),
  name: z.string(),
  address: z.string(),
  garage_id: z.string().nullable(),
  garage: unitGarage,
  external_id: z.string().nullable(),
  inventory: z.array(unitStockRow),
});
export type Unit = z.infer<typeof unit>;

/** POST /api/units — Add Unit with its inventory rows (docs/product.md "Screens: Add Unit", "Validation rules"). */
export const createUnitBody = z.strictObject({
  name: requiredText('Name', 'Please provide unit name and address'),
  address: requiredText('Address', 'Please provide unit name and address'),
  garage_id: z.uuid('Please select a garage'),
  inventory: stockLines.default([]),
});
export type CreateUnitBody = z.infer<typeof createUnitBody>;

/** PATCH /api/units/:id — Edit Unit / Assign Garage; `garage_id` null unassigns. */
export const updateUnitBody = z.strictObject({
  name: requiredText('Name', 'Please provide unit name and address'),
  address: requiredText('Address', 'Please provide unit name and address'),
  garage_id: z.uuid('Please select a garage').nullable(),
});
export type UpdateUnitBody = z.infer<typeof updateUnitBody>;

/** A quantity one request adds or moves: a whole number from 1 to 1,000,000. */
export const requestedQuantity = wholeNumber('Quantity', 1);

/** POST /api/units/:id/inventory — "Add Manually": adds `quantity` (>= 1) of an item to the unit. */
export const addUnitStockBody = z.strictObject({
  item_id: z.uuid('Please fill in all fields'),
  quantity: requestedQuantity,
});
export type AddUnitStockBody = z.infer<typeof addUnitStockBody>;

/**
 * POST /api/units/:id/inventory/:itemId/transfer — restock by quantity: moves `quantity` (>= 1)
 * from the unit's garage in one transfer (docs/product.md "Stock movements and statuses"); also
 * "Add Manually" from the garage, which opens the unit's stock row of the item when it has none.
 */
export const transferUnitStockBody = z.strictObject({ quantity: requestedQuantity });
export type TransferUnitStockBody = z.infer<typeof transferUnitStockBody>;

/**
 * POST /api/units/:id/inventory/:itemId/consume — the minus button: `quantity` used up at the unit
 * (1 when the body is left out; quick taps are sent together), never below 0.
 */
export const consumeUnitStockBody = z.strictObject({ quantity: requestedQuantity.default(1) });
export type ConsumeUnitStockBody = z.infer<typeof consumeUnitStockBody>;

/**
 * POST /api/units/:id/restock-to-minimum — "Restock to minimum" for the whole unit, or for the
 * one stock row of `item_id` (docs/product.md "Stock movements and statuses").
 */
export const restockToMinimumBody = z.strictObject({ item_id: z.uuid('Item must be an item id').optional() });
export type RestockToMinimumBody = z.infer<typeof restockToMinimumBody>;

/**
 * The movements a stock change wrote at the unit (`inventory_logs` ids), which
 * POST /api/units/:id/movements/reverse takes to undo it; empty when nothing changed.
 */
const movementIds = z.array(z.string());

/**
 * Answer of "Restock to minimum": what moved from the garage to each row that was below its
 * item's minimum threshold, and what the garage could not cover (`missing` pieces), by item name.
 */
export const restockToMinimumResult = z.object({
  moved: z.array(z.object({ item_id: z.string(), item_name: z.string(), quantity: z.number().int() })),
  short: z.array(z.object({ item_id: z.string(), item_name: z.string(), missing: z.number().int() })),
  movement_ids: movementIds,
});
export type RestockToMinimumResult = z.infer<typeof restockToMinimumResult>;

/** The quantities of a stock row after a stock change, and its status. */
export const stockChangeResult = z.object({
  unit_quantity: z.number().int(),
  /** The unit's garage stock of the item after a transfer; null for other changes. */
  garage_quantity: z.number().int().nullable(),
  status: z.enum(stockStatuses),
});
export type StockChangeResult = z.infer<typeof stockChangeResult>;

/** Answer of plus (its taps as one transfer), minus, restock by quantity and Add Manually: the new quantities and how to undo the change. */
export const stockMoveResult = stockChangeResult.extend({ movement_ids: movementIds });
export type StockMoveResult = z.infer<typeof stockMoveResult>;

/** Answer of removing a stock row: how to undo it (empty when the row held nothing). */
export const stockRowRemoval = z.object({ movement_ids: movementIds });
export type StockRowRemoval = z.infer<typeof stockRowRemoval>;

/** Most stock changes one undo may reverse (a restock to minimum reverses one per item). */
export const MAX_REVERSED_MOVEMENTS = 1000;

/**
 * POST /api/units/:id/movements/reverse — Undo: writes the reverse of each of these stock changes
 * of the unit, all or none (docs/product.md "Stock movements and statuses", decision 024).
 */
export const reverseMovementsBody = z.strictObject({
  movement_ids: z
    .array(z.uuid('Each movement must be a stock change id'))
    .min(1, 'Name at least one stock change to undo')
    .max(MAX_REVERSED_MOVEMENTS, `At most ${grouped(MAX_REVERSED_MOVEMENTS)} stock changes at once`)
    .refine((ids) => new Set(ids).size === ids.length, 'Each stock change can be undone only once'),
});
export type ReverseMovementsBody = z.infer<typeof reverseMovementsBody>;
