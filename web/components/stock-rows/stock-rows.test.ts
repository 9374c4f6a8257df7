import { describe, expect, it } from 'vitest';
import { emptyStockRow, itemsPickedElsewhere, rowsFromStock, skippedRowsMessage, stockRowsForm } from './stock-rows';

const messagesOf = (rows: { item_id: string; quantity: string }[]) =>
  stockRowsForm.safeParse(rows).error?.issues.map((issue) => [issue.path.join('.'), issue.message]);

describe('stock rows (docs/product.md "States and transitions", "Validation rules")', () => {
  it('leaves out rows without an item or at 0, and adds up an item picked twice', () => {
    expect(
      stockRowsForm.parse([
        { item_id: 'a', quantity: '3' },
        { item_id: '', quantity: '5' },
        { item_id: 'b', quantity: '0' },
        { item_id: 'd', quantity: '' },
        { item_id: 'e', quantity: 'x' },
        { item_id: 'a', quantity: '4' },
      ]),
    ).toEqual([{ item_id: 'a', quantity: 7 }]);
  });

  it('refuses fractions, negative and too large quantities with the row named, instead of cutting them', () => {
    expect(messagesOf([{ item_id: 'a', quantity: '1.5' }])).toEqual([['0.quantity', 'Quantity must be a whole number']]);
    expect(messagesOf([{ item_id: 'a', quantity: '2' }, { item_id: 'b', quantity: '-2' }])).toEqual([['1.quantity', 'Quantity must be 0 or more']]);
    expect(messagesOf([{ item_id: 'a', quantity: '1000001' }])).toEqual([['0.quantity', 'Quantity must be at most 1,000,000']]);
  });

  it('says which rows a save of new stock skips, instead of a plain success', () => {
    expect(skippedRowsMessage([{ item_id: 'a', quantity: '3' }])).toBeUndefined();
    expect(skippedRowsMessage([])).toBeUndefined();
    expect(skippedRowsMessage([{ item_id: 'a', quantity: '0' }])).toBe('1 row skipped: quantity must be at least 1');
    expect(
      skippedRowsMessage([
        { item_id: 'a', quantity: '0' },
        { item_id: 'b', quantity: '' },
        { item_id: '', quantity: '1' },
        { item_id: 'c', quantity: '2' },
      ]),
    ).toBe('2 rows skipped: quantity must be at least 1; 1 row skipped: no item selected');
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
