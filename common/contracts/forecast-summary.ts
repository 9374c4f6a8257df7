/**
 * GET /api/forecast/summary: the dashboard card "Runs out before a check-in" (docs/product.md
 * "Screens: Forecast"). Apart from the forecast's other contracts, and written with `zod/mini`
 * like every answer the dashboard reads (common/contracts/dashboard.ts, decision 016): the card's
 * code then shares the dashboard's zod instead of loading the classic API while the dashboard
 * paints.
 */
import * as z from 'zod/mini';

/** Days ahead the Dashboard card "Runs out before a check-in" looks. */
export const SUMMARY_HORIZON_DAYS = 7;

/**
 * Why a check-in is short (docs/product.md "Forecast"): `runs_out` — the stock before the arrival
 * does not cover the stay's expected use; `below_minimum` — it covers it but is below the item's
 * minimum threshold.
 */
export const shortfallKinds = ['runs_out', 'below_minimum'] as const;
export type ShortfallKind = (typeof shortfallKinds)[number];

/** The answer: how many properties are short within the horizon, and the first three. */
export const forecastSummary = z.object({
  horizon_days: z.int(),
  properties_short: z.int(),
  first: z.array(
    z.object({
      unit_id: z.string(),
      unit_name: z.string(),
      /** The first check-in that would start short, a calendar day (YYYY-MM-DD) of the property. */
      arrival_date: z.string(),
      kind: z.enum(shortfallKinds),
      /** Up to three of the items short, the most urgent first. */
      item_names: z.array(z.string()),
      items_short: z.int(),
    }),
  ),
});
export type ForecastSummary = z.infer<typeof forecastSummary>;
