import { describe, expect, it } from 'vitest';
import { emptyStockRow, itemsPickedElsewhere, rowsFromStock, stockRowsForm, toStockLines } from './stock-rows';

describe('stock rows (docs/product.md "States and transitions", "Validation rules")', () => {
  it('skips rows without an item or with a quantity of 0 or less', () => {
    expect(
      toStockLines([
        { item_id: 'a', quantity: '3' },
        { item_id: '', quantity: '5' },
        { item_id: 'b', quantity: '0' },
        { item_id: 'c', quantity: '-2' },
        { item_id: 'd', quantity: '' },
        { item_id: 'e', quantity: 'x' },
      ]),
    ).toEqual([{ item_id: 'a', quantity: 3 }]);
  });

  it('reads quantities as whole numbers and adds up an item picked twice', () => {
    expect(
      toStockLines([
        { item_id: 'a', quantity: '2.7' },
        { item_id: 'b', quantity: '1' },
        { item_id: 'a', quantity: '4' },
      ]),
    ).toEqual([
      { item_id: 'a', quantity: 6 },
      { item_id: 'b', quantity: 1 },
    ]);
  });

  it('starts a new row at quantity 1 and turns stock into editable rows', () => {
    expect(emptyStockRow).toEqual({ item_id: '', quantity: '1' });
    expect(rowsFromStock([{ item_id: 'a', quantity: 12 }])).toEqual([{ item_id: 'a', quantity: '12' }]);
    expect(stockRowsForm.parse([{ item_id: 'a', quantity: '12' }, emptyStockRow])).toEqual([{ item_id: 'a', quantity: 12 }]);
  });

  it('knows which items other rows already use', () => {
    const rows = [
      { item_id: 'a', quantity: '1' },
      { item_id: '', quantity: '1' },
      { item_id: 'b', quantity: '1' },
    ];
    expect([...itemsPickedElsewhere(rows, 0)]).toEqual(['b']);
    expect([...itemsPickedElsewhere(rows, 1)]).toEqual(['a', 'b']);
  });
});
