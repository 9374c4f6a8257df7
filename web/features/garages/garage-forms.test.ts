import { describe, expect, it } from 'vitest';
import { createGarageForm, emptyGarageDraft, garageDetailsForm } from './garage-forms';

const GARAGE_REQUIRED_MESSAGE = 'Please fill out all fields';

const towel = '7b0f9c1e-2d1a-4c55-9a51-0c1d3c1f8a11';
const soap = '0f3b9a52-8a5e-4b0e-8f7e-5b6c2d1e3f40';

describe('garage forms (docs/product.md "Screens: Garages", "Validation rules")', () => {
  it('asks for name and address with one message', () => {
    const result = createGarageForm.safeParse(emptyGarageDraft);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([GARAGE_REQUIRED_MESSAGE, GARAGE_REQUIRED_MESSAGE]);
    expect(garageDetailsForm.safeParse({ name: 'Depot', address: ' ' }).error?.issues[0]?.message).toBe(GARAGE_REQUIRED_MESSAGE);
  });

  it('names the field and its limit for a name that is too long, instead of asking to fill it', () => {
    const result = garageDetailsForm.safeParse({ name: 'x'.repeat(10_000), address: '1 Depot Road' });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(['Name must be at most 200 characters']);
  });

  it('sends the initial inventory without empty rows', () => {
    expect(
      createGarageForm.parse({
        name: ' Main Garage ',
        address: '1 Depot Road',
        inventory: [
          { item_id: towel, quantity: '20' },
          { item_id: '', quantity: '1' },
          { item_id: soap, quantity: '0' },
        ],
      }),
    ).toEqual({ name: 'Main Garage', address: '1 Depot Road', inventory: [{ item_id: towel, quantity: 20 }] });
  });

  it('refuses a fraction of a quantity instead of saving less', () => {
    const result = createGarageForm.safeParse({ name: 'Main Garage', address: '1 Depot Road', inventory: [{ item_id: soap, quantity: '1.5' }] });
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([['inventory.0.quantity', 'Quantity must be a whole number']]);
  });
});
