import { describe, expect, it } from 'vitest';
import {
  ADD_STOCK_REQUIRED_MESSAGE,
  addStockForm,
  addUnitForm,
  editUnitForm,
  emptyAddStockDraft,
  emptyAddUnitDraft,
  errorMessages,
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
  it('starts at quantity 1 and needs an item', () => {
    expect(emptyAddStockDraft.quantity).toBe('1');
    expect(messagesOf(addStockForm.safeParse(emptyAddStockDraft))).toEqual([['item_id', ADD_STOCK_REQUIRED_MESSAGE]]);
  });

  it('needs a whole quantity of at least 1', () => {
    expect(addStockForm.parse({ item_id: towel, quantity: '3' })).toEqual({ item_id: towel, quantity: 3 });
    expect(messagesOf(addStockForm.safeParse({ item_id: towel, quantity: '' }))).toEqual([['quantity', ADD_STOCK_REQUIRED_MESSAGE]]);
    expect(messagesOf(addStockForm.safeParse({ item_id: towel, quantity: '0' }))).toEqual([['quantity', 'Quantity must be at least 1']]);
    expect(messagesOf(addStockForm.safeParse({ item_id: towel, quantity: '1.5' }))).toEqual([['quantity', 'Quantity must be a whole number']]);
  });
});

describe('form helpers', () => {
  it("shows garages as 'name - address'", () => {
    expect(garageOptionLabel({ name: 'Main', address: '1 Depot Road' })).toBe('Main - 1 Depot Road');
  });

  it('lists each message once, in field order', () => {
    expect(
      errorMessages(
        { address: { message: UNIT_REQUIRED_MESSAGE }, name: { message: UNIT_REQUIRED_MESSAGE }, garage_id: { message: GARAGE_REQUIRED_MESSAGE } },
        ['name', 'address', 'garage_id'],
      ),
    ).toEqual([UNIT_REQUIRED_MESSAGE, GARAGE_REQUIRED_MESSAGE]);
  });
});
