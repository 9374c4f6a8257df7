/**
 * How a unit's cached stock follows its stock changes (docs/product.md "Screens: Unit detail"):
 * a tap changes the number at once, and a server's answer is written into the unit's row and its
 * garage's stock; the other views showing stock are marked stale.
 */
import type { QueryClient } from '@tanstack/react-query';
import { stockStatus, type Garage, type StockChangeResult, type Unit } from '../../../common/contracts/stock';
import { dashboardQuery } from '../../lib/queries/get-dashboard';
import { garagesQuery } from '../../lib/queries/get-garages';
import { unitQuery } from '../../lib/queries/get-unit';
import { unitsQuery } from '../../lib/queries/get-units';

/** The unit with one item's row at `quantity`, its status derived again. */
export function setRowQuantity(unit: Unit, itemId: string, quantity: number): Unit {
  return {
    ...unit,
    inventory: unit.inventory.map((row) => (row.item_id === itemId ? { ...row, quantity, status: stockStatus(quantity, row.minimum_threshold) } : row)),
  };
}

/** The garages with one garage's stock of an item set to `quantity` (after a restock transfer). */
export function setGarageQuantity(garages: Garage[], garageId: string, itemId: string, quantity: number): Garage[] {
  return garages.map((garage) =>
    garage.id !== garageId
      ? garage
      : { ...garage, inventory: garage.inventory.map((row) => (row.item_id === itemId ? { ...row, quantity } : row)) },
  );
}

/**
 * Writes the answer of a change of one stock row into the cache: the unit's row (read again when
 * the change opened it), plus `pendingPieces` of taps made after it and not yet answered, and the
 * garage's stock; the dashboard, the units list and the garages are marked stale.
 */
export async function recordStockChange(queryClient: QueryClient, unitId: string, itemId: string, result: StockChangeResult, pendingPieces = 0): Promise<void> {
  const key = unitQuery(unitId).queryKey;
  const unit = queryClient.getQueryData(key);
  if (unit?.inventory.some((row) => row.item_id === itemId)) {
    queryClient.setQueryData(key, setRowQuantity(unit, itemId, result.unit_quantity + pendingPieces));
  } else {
    await queryClient.invalidateQueries({ queryKey: key, exact: true });
  }
  const garageId = unit?.garage_id;
  if (result.garage_quantity !== null && garageId) {
    const quantity = result.garage_quantity;
    queryClient.setQueryData(garagesQuery.queryKey, (garages) => (garages ? setGarageQuantity(garages, garageId, itemId, quantity) : garages));
  }
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: dashboardQuery.queryKey }),
    queryClient.invalidateQueries({ queryKey: unitsQuery.queryKey, exact: true }),
    queryClient.invalidateQueries({ queryKey: garagesQuery.queryKey }),
  ]);
}
