/**
 * How a unit's cached stock changes on the unit page's plus and minus buttons: at once on the
 * tap (so it feels instant on a phone), then to the server's own numbers when it answers.
 */
import { stockStatus, type Garage, type StockChangeResult, type Unit } from '../../../common/contracts/stock';

/** minus: consume 1 at the unit; plus: restock 1 from the unit's garage. */
export type StockAdjustment = 'consume' | 'restock';

function mapRow(unit: Unit, itemId: string, change: (row: Unit['inventory'][number]) => Unit['inventory'][number]): Unit {
  return { ...unit, inventory: unit.inventory.map((row) => (row.item_id === itemId ? change(row) : row)) };
}

/** The unit as it will most likely be after the tap: one more or one less, never below 0. */
export function applyAdjustment(unit: Unit, itemId: string, adjustment: StockAdjustment): Unit {
  return mapRow(unit, itemId, (row) => {
    const quantity = Math.max(0, row.quantity + (adjustment === 'restock' ? 1 : -1));
    return { ...row, quantity, status: stockStatus(quantity, row.minimum_threshold) };
  });
}

/** The unit with the server's answer for one item: its final quantity and status. */
export function applyStockResult(unit: Unit, itemId: string, result: StockChangeResult): Unit {
  return mapRow(unit, itemId, (row) => ({ ...row, quantity: result.unit_quantity, status: result.status }));
}

/** Puts one item's row back as it was in `before` (a refused tap), leaving the other rows alone. */
export function restoreRow(unit: Unit, before: Unit, itemId: string): Unit {
  const previous = before.inventory.find((row) => row.item_id === itemId);
  return previous ? mapRow(unit, itemId, () => previous) : unit;
}

/** The garages with one garage's stock of an item set to `quantity` (after a restock transfer). */
export function setGarageQuantity(garages: Garage[], garageId: string, itemId: string, quantity: number): Garage[] {
  return garages.map((garage) =>
    garage.id !== garageId
      ? garage
      : { ...garage, inventory: garage.inventory.map((row) => (row.item_id === itemId ? { ...row, quantity } : row)) },
  );
}
