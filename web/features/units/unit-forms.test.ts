import { describe, expect, it } from 'vitest';
import {
  ADD_STOCK_REQUIRED_MESSAGE,
  addStockForm,
  addUnitForm,
  editUnitForm,
  emptyAddStockDraft,
  emptyAddUnitDraft,
  GARAGE_REQUIRED_MESSAGE,
  garageOptionLabel,
  UNIT_REQUIRED_MESSAGE,
} from './unit-forms';

const garageId = '2c9e6c0a-8a4b-4f43-9d1e-7a6b5c4d3e2f';
const towel = '7b0f9c1e-2d1a-4c55-9a51-0c1d3c1f8a11';

function messagesOf(result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  return result.error?.issues.map((issue) => [issue.path.join('.'), issue.message]);
}

describe('Add Unit form (docs/product.md "Validation rules")', () => {
  it('asks for name and address, and for a garage', () => {
    expect(messagesOf(addUnitForm.safeParse(emptyAddUnitDraft))).toEqual([
      ['name', UNIT_REQUIRED_MESSAGE],
      ['address', UNIT_REQUIRED_MESSAGE],
      ['garage_id', GARAGE_REQUIRED_MESSAGE],
    ]);
  });

  it('skips rows without an item or with a quantity of 0 or less', () => {
    expect(
      addUnitForm.parse({
        name: 'Beach House',
        address: '1 Shore Lane',
        garage_id: garageId,
        inventory: [
          { item_id: towel, quantity: '4' },
          { item_id: '', quantity: '2' },
          { item_id: towel.replace('7', '8'), quantity: '0' },
        ],
      }),
    ).toEqual({ name: 'Beach House', address: '1 Shore Lane', garage_id: garageId, inventory: [{ item_id: towel, quantity: 4 }] });
  });
});

describe('Edit Unit form', () => {
  it("sends null for '-- Select a Garage --'", () => {
    expect(editUnitForm.parse({ name: 'A', address: 'B', garage_id: '' })).toEqual({ name: 'A', address: 'B', garage_id: null });
    expect(editUnitForm.parse({ name: 'A', address: 'B', garage_id: garageId }).garage_id).toBe(garageId);
  });
});

describe('Add Manually form (docs/product.md "Validation rules")', () => {
  it('starts at quantity 1, from the garage when the unit has one, and needs an item', () => {
    expect(emptyAddStockDraft(true)).toEqual({ item_id: '', quantity: '1', source: 'garage' });
    expect(emptyAddStockDraft(false).source).toBe('outside');
    expect(messagesOf(addStockForm.safeParse(emptyAddStockDraft(true)))).toEqual([['item_id', ADD_STOCK_REQUIRED_MESSAGE]]);
  });

  it('needs a whole quantity of at least 1, refusing fractions instead of cutting them', () => {
    const from = (quantity: string) => ({ item_id: towel, quantity, source: 'garage' });
    expect(addStockForm.parse(from('3'))).toEqual({ item_id: towel, quantity: 3, source: 'garage' });
    expect(messagesOf(addStockForm.safeParse(from('')))).toEqual([['quantity', ADD_STOCK_REQUIRED_MESSAGE]]);
    expect(messagesOf(addStockForm.safeParse(from('0')))).toEqual([['quantity', 'Quantity must be at least 1']]);
    expect(messagesOf(addStockForm.safeParse(from('1.5')))).toEqual([['quantity', 'Quantity must be a whole number']]);
  });
});

describe('form helpers', () => {
  it("shows garages as 'name - address'", () => {
    expect(garageOptionLabel({ name: 'Main', address: '1 Depot Road' })).toBe('Main - 1 Depot Road');
  });
});
