/** The units list card's summary of a unit's stock: counts and the neediest rows. */
import { describe, expect, it } from 'vitest';
import { stockStatus, type UnitStockRow } from '../../../common/contracts/stock';
import { summarizeUnitStock } from './unit-summary';

const row = (item_name: string, quantity: number, minimum_threshold: number): UnitStockRow => ({
  id: item_name,
  item_id: item_name,
  item_name,
  quantity,
  minimum_threshold,
  status: stockStatus(quantity, minimum_threshold),
});

describe('summarizeUnitStock', () => {
  it('counts critical and low rows and keeps the three neediest, critical first', () => {
    const summary = summarizeUnitStock([
      row('Towel', 10, 4),
      row('Soap', 3, 4),
      row('Coffee Pods', 0, 10),
      row('Sponge', 1, 10),
      row('Tissues', 0, 2),
      row('Candles', 2, 4),
    ]);
    expect(summary).toMatchObject({ total: 6, critical: 2, low: 3 });
    expect(summary.worst.map((r) => r.item_name)).toEqual(['Coffee Pods', 'Tissues', 'Sponge']);
  });

  it('has no neediest rows when everything is sufficient, or nothing is stocked', () => {
    expect(summarizeUnitStock([row('Towel', 10, 4)])).toEqual({ total: 1, critical: 0, low: 0, worst: [] });
    expect(summarizeUnitStock([])).toEqual({ total: 0, critical: 0, low: 0, worst: [] });
  });

  it('keeps as many as asked', () => {
    const rows = [row('A', 0, 1), row('B', 0, 1), row('C', 1, 3)];
    expect(summarizeUnitStock(rows, 1).worst.map((r) => r.item_name)).toEqual(['A']);
  });
});
