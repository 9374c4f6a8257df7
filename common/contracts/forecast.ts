/**
 * Forecast API contracts (docs/product.md "Forecast", "Pick lists"): what each property will use
 * of each item over the next days from its upcoming stays, the first check-in that would start
 * short, what to bring, and the pick lists of a storage garage. Dates are 'YYYY-MM-DD' calendar
 * days of the property (or, for a pick list, of the company); quantities are pieces, expected
 * uses rounded to one decimal, quantities to bring whole.
 */
import { z } from 'zod';
import { calendarDate, wholeNumber } from './fields';
import { shortfallKinds } from './forecast-summary';

/** Days ahead a forecast may look, the default first (docs/product.md "Forecast"). */
export const FORECAST_HORIZONS = [7, 3, 14] as const;
export const DEFAULT_FORECAST_HORIZON = 7;

/** Most properties GET /api/forecast lists (the most urgent first). */
export const FORECAST_PROPERTIES_SHOWN = 50;

/** Days from a pick list's day whose arrivals what is brought that day must cover (docs/product.md "Pick lists"). */
export const PICK_LIST_HORIZON_DAYS = 7;

/** Furthest day ahead a pick list may be asked for, in days after the company's today. */
export const PICK_LIST_DAYS_AHEAD = 60;

export const forecastQuery = z.strictObject({
  horizon: z.coerce
    .number('Horizon must be 3, 7 or 14 days')
    .refine((n): n is (typeof FORECAST_HORIZONS)[number] => (FORECAST_HORIZONS as readonly number[]).includes(n), {
      message: 'Horizon must be 3, 7 or 14 days',
    })
    .default(DEFAULT_FORECAST_HORIZON),
});
export type ForecastQuery = z.infer<typeof forecastQuery>;


/**
 * Stays of the company's figure a property's own usage rate is weighed against (docs/product.md
 * "Forecast", usage per stay): a property with fewer past stays than this leans mostly on the
 * company's usage, and its pages say so.
 */
export const PRIOR_STAYS = 4;

/** How a usage rate was found (docs/product.md "Forecast", usage per stay). */
export const rateBasis = z.enum(['property', 'company', 'default', 'none']);
export type RateBasis = z.infer<typeof rateBasis>;

/**
 * A property's usage rate in force for an item (docs/product.md "Forecast"). A stay of g guests
 * and n nights is expected to use
 * fixed_share·per_stay + (1 − fixed_share)·per_guest_night·g·n pieces.
 */
export const usageRate = z.object({
  item_id: z.string(),
  /** Pieces per stay, at the property's typical stay. */
  per_stay: z.number(),
  /** Pieces per guest-night. */
  per_guest_night: z.number(),
  /**
   * The item's fixed share f, 0 to 1: the part of a stay's use that does not grow with its
   * guest-nights, fitted per item over the company's properties; 1 for an item's default or
   * none (then `per_guest_night` is 0).
   */
  fixed_share: z.number().min(0).max(1),
  /** Stays of the property the rate was learned from. */
  stays: z.number().int(),
  /**
   * The item's dispersion φ, learned over the company's properties: a stay's use varies around
   * its expected use with variance φ × that use (1 as a Poisson count; above 1 more spread, below
   * 1 steadier); 1 for an item's default or none. Between 0.05 and 50.
   */
  dispersion: z.number().min(0.05).max(50),
  basis: rateBasis,
});
export type UsageRate = z.infer<typeof usageRate>;

export const shortfall = z.object({
  /** The source's id of the stay that would start short. */
  stay_id: z.string(),
  arrival_date: z.string(),
  kind: z.enum(shortfallKinds),
  /** Expected stock just before that arrival (one decimal; may be below 0). */
  projected: z.number(),
});
export type Shortfall = z.infer<typeof shortfall>;

/** One item of a property over the horizon. */
export const itemForecast = z.object({
  item_id: z.string(),
  item_name: z.string(),
  category: z.string(),
  quantity: z.number().int(),
  minimum_threshold: z.number().int(),
  /**
   * The whole expected use of the stays the projection counts — under way (a stay departing
   * today until usage is recorded at the property today) or arriving in the horizon — every
   * night of each, those before today or after the horizon included (one decimal).
   */
  expected_use: z.number(),
  shortfall: shortfall.nullable(),
  /** Pieces to bring so that no check-in of the horizon starts short. */
  bring: z.number().int(),
});
export type ItemForecast = z.infer<typeof itemForecast>;

export const forecastStay = z.object({
  id: z.string(),
  source: z.enum(['hostaway', 'calendar', 'demo']),
  arrival_date: z.string(),
  departure_date: z.string(),
  /** Guests as the forecast counts them (the property's typical number when the source gives none). */
  guests: z.number().int(),
  nights: z.number().int(),
  /**
   * Arrived before the property's today and not departed: its expected use is counted, it is not
   * checked as an arrival. A stay departing today is listed until usage is recorded at the
   * property today (docs/product.md "Forecast").
   */
  under_way: z.boolean(),
});
export type ForecastStay = z.infer<typeof forecastStay>;

/**
 * A unit (on screen, a property) that would start a check-in short, with the items concerned only.
 * The answers' `properties…` fields keep their names: clients read them.
 */
export const shortUnitForecast = z.object({
  unit_id: z.string(),
  unit_name: z.string(),
  garage_id: z.string().nullable(),
  garage_name: z.string().nullable(),
  /** First arrival of the horizon that starts short of some item. */
  first_shortfall_date: z.string(),
  stays: z.number().int(),
  /**
   * Past stays the property's usage is learned from, whole stays: those that departed in the
   * learning window (90 days, server model.ts LEARNING_DAYS) as the rates in force count them, the
   * most over its stock rows whose usage the company learned (basis `property` or `company`); null
   * when it has none (each item uses its default or nothing). Below PRIOR_STAYS the forecast leans
   * on the company's usage (docs/product.md "Forecast", usage per stay).
   */
  past_stays: z.number().int().nullable(),
  items: z.array(itemForecast),
});
export type ShortUnitForecast = z.infer<typeof shortUnitForecast>;

/**
 * The service levels a company may choose for its pick lists, percent (docs/forecast.md "Spread and
 * service level"): the chance that an arriving stay finds every item it needs.
 */
export const SERVICE_LEVELS = [80, 90, 95, 98, 99] as const;

/** The level a company starts with. */
export const DEFAULT_SERVICE_LEVEL = 95;

export const SERVICE_LEVEL_MESSAGE = `Service level must be one of ${SERVICE_LEVELS.join(', ')} %`;

/** PUT /api/forecast/service-level (admins): the company's service level. */
export const serviceLevelBody = z.strictObject({
  service_level: z.literal(SERVICE_LEVELS, { error: SERVICE_LEVEL_MESSAGE }),
});
export type ServiceLevelBody = z.infer<typeof serviceLevelBody>;

export const serviceLevelAnswer = z.object({ service_level: z.number().int() });
export type ServiceLevelAnswer = z.infer<typeof serviceLevelAnswer>;

/** GET /api/forecast: properties that would start a check-in short, most urgent first. */
export const forecastAnswer = z.object({
  horizon_days: z.number().int(),
  /** The company's today ('YYYY-MM-DD'). */
  today: z.string(),
  /** Properties with a shortfall in the horizon, over all (the list may be cut). */
  properties_short: z.number().int(),
  /** Of those, the properties with an item that runs out (kind `runs_out`) before a check-in; the rest are only below minimum. */
  properties_running_out: z.number().int(),
  properties: z.array(shortUnitForecast),
  /** Properties with at least one stay in the horizon. */
  properties_with_stays: z.number().int(),
  /** When the usage rates were learned (ISO instant), null before the first time. */
  rates_learned_at: z.string().nullable(),
  /** The company's service level, percent: what its pick lists bring for (SERVICE_LEVELS). */
  service_level: z.number().int(),
});
export type ForecastAnswer = z.infer<typeof forecastAnswer>;

/** GET /api/units/:id/forecast: every item of one property, its stays and learned rates. */
export const unitForecastAnswer = z.object({
  unit_id: z.string(),
  horizon_days: z.number().int(),
  today: z.string(),
  stays: z.array(forecastStay),
  items: z.array(itemForecast.extend({ rate: usageRate })),
  /** Past stays the property's usage is learned from, as GET /api/forecast counts them (ShortUnitForecast `past_stays`). */
  past_stays: z.number().int().nullable(),
});
export type UnitForecastAnswer = z.infer<typeof unitForecastAnswer>;


// ---- Pick lists ------------------------------------------------------------------------------

export const pickListQuery = z.strictObject({
  /** The day the stock is taken out (default: tomorrow in the company's time zone). */
  date: calendarDate('Date').optional(),
});

/** A line of a pick list: its item (named once per answer in PickListAnswer `items`), the stock there and what to take. */
export const pickListLine = z.object({
  item_id: z.string(),
  /** Stock at the property now. */
  quantity: z.number().int(),
  /** What to take there. */
  bring: z.number().int(),
});
export type PickListLine = z.infer<typeof pickListLine>;

/** A quantity of an item: a garage's stock of it. */
export const itemQuantity = z.object({ item_id: z.string(), quantity: z.number().int() });
export type ItemQuantity = z.infer<typeof itemQuantity>;

/** One unit (on screen, a property) of a pick list: its arrivals and what to take there. */
export const pickListUnit = z.object({
  unit_id: z.string(),
  unit_name: z.string(),
  address: z.string(),
  arrivals: z.array(z.object({ stay_id: z.string(), arrival_date: z.string(), guests: z.number().int(), nights: z.number().int() })),
  lines: z.array(pickListLine),
  /**
   * What the lines buy, null without an arrival in the horizon: `pieces` brought for a chance
   * `chance` (0–1) that no arrival of the horizon finds an item short, at the company's service
   * level; `expected_pieces` and `expected_chance` the same for bringing each stay's expected use
   * only (docs/forecast.md "Spread and service level").
   */
  service: z
    .object({ level: z.number().int(), pieces: z.number().int(), chance: z.number(), expected_pieces: z.number().int(), expected_chance: z.number() })
    .nullable(),
});
export type PickListUnit = z.infer<typeof pickListUnit>;

/** GET /api/garages/:id/pick-list: what to take from one garage on one day, by property in arrival order. */
export const pickListAnswer = z.object({
  garage_id: z.string(),
  garage_name: z.string(),
  date: z.string(),
  horizon_days: z.number().int(),
  /**
   * The garage's stock now of every item it holds. It goes to the properties in their order: each
   * line takes what is left of its item after the lines listed before it (common/pick-list.ts
   * `lineShortfalls`, which says what of each line it cannot cover).
   */
  garage_stock: z.array(itemQuantity),
  /**
   * The items the lines name, once each, in name order: a list at a service level names most
   * items at every property, and naming them per line made the answer a third larger.
   */
  items: z.array(z.object({ item_id: z.string(), item_name: z.string(), category: z.string() })),
  properties: z.array(pickListUnit),
});
export type PickListAnswer = z.infer<typeof pickListAnswer>;

/** POST /api/units/:id/pick-list/deliver: the lines taken to the property, as restock transfers. */
export const deliverPickListBody = z.strictObject({
  lines: z
    .array(z.strictObject({ item_id: z.uuid(), quantity: wholeNumber('Quantity', 1) }))
    .min(1, 'Choose at least one line to deliver')
    .max(2000, 'At most 2,000 lines can be delivered at once')
    .refine((lines) => new Set(lines.map((l) => l.item_id)).size === lines.length, 'Each item can appear only once'),
});
export type DeliverPickListBody = z.infer<typeof deliverPickListBody>;

export const deliverPickListResult = z.object({
  movement_ids: z.array(z.string()),
  delivered: z.array(z.object({ item_id: z.string(), quantity: z.number().int() })),
});
export type DeliverPickListResult = z.infer<typeof deliverPickListResult>;

// ---- Reorder from the forecast ------------------------------------------------------------

/** One item of GET /api/garages/:id/order-forecast. */
export const orderForecastLine = z.object({
  item_id: z.string(),
  item_name: z.string(),
  category: z.string(),
  /** The garage's stock now. */
  garage_quantity: z.number().int(),
  minimum_threshold: z.number().int(),
  /** What the garage's properties need brought over the lead time (sum of their `bring`). */
  needed: z.number().int(),
  /** What to order, whole pieces >= 0: `orderQuantity` of contracts/stock.ts (docs/product.md "Pick lists"). */
  order: z.number().int(),
});
export type OrderForecastLine = z.infer<typeof orderForecastLine>;

/** GET /api/garages/:id/order-forecast: what to order for a garage, from its properties' upcoming stays. */
export const orderForecastAnswer = z.object({
  garage_id: z.string(),
  garage_name: z.string(),
  /** The garage's lead time: days an order takes to arrive. */
  lead_time_days: z.number().int(),
  /** The company's today ('YYYY-MM-DD'). */
  today: z.string(),
  /** Items the garage holds or its properties need, the largest order first. */
  items: z.array(orderForecastLine),
});
export type OrderForecastAnswer = z.infer<typeof orderForecastAnswer>;
