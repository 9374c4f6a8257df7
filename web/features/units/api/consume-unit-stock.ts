/**
 * POST /api/units/:id/inventory/:itemId/consume — minus taps sent together: n used at the unit,
 * never below 0. Its changes are kept and sent by use-stock-taps.ts through the outbox; the answer
 * is a StockMoveResult (common/contracts/stock.ts).
 */

/** The route's path for the stock row of `itemId` at unit `unitId`. */
export const consumePath = (unitId: string, itemId: string): string =>
  `/api/units/${encodeURIComponent(unitId)}/inventory/${encodeURIComponent(itemId)}/consume`;
