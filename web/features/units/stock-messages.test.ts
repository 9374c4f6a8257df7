import { describe, expect, it } from 'vitest';
import { movedFromGarage, restockToMinimumMessage, usedAtUnit } from './stock-messages';

const towel = { item_id: 't', item_name: 'Bath Towel' };
const pods = { item_id: 'p', item_name: 'Coffee Pods' };
const sponge = { item_id: 's', item_name: 'Sponge' };

describe('stock change messages (docs/product.md "Messages")', () => {
  it('says what moved and what was used', () => {
    expect(movedFromGarage(3, 'Bath Towel', 'Main Storage')).toBe('3 Bath Towel moved from Main Storage');
    expect(usedAtUnit(2, 'Bath Towel')).toBe('2 Bath Towel used');
  });

  it('says what restock to minimum moved, or that nothing was missing', () => {
    expect(restockToMinimumMessage({ moved: [], short: [], movement_ids: [] })).toEqual({ text: 'Everything is at its minimum already', short: false });
    expect(
      restockToMinimumMessage({ moved: [{ ...towel, quantity: 2 }, { ...pods, quantity: 9 }], short: [], movement_ids: ['a', 'b'] }),
    ).toEqual({ text: 'Restocked to minimum: 2 Bath Towel, 9 Coffee Pods', short: false });
  });

  it('says what the garage could not cover: what each item needs and what the garage had', () => {
    expect(
      restockToMinimumMessage({
        moved: [{ ...towel, quantity: 1 }],
        short: [
          { ...towel, missing: 2 },
          { ...sponge, missing: 4 },
        ],
        movement_ids: ['a'],
      }),
    ).toEqual({ text: 'Restocked 1 item. 2 items short: Bath Towel (needs 3, garage has 1), Sponge (needs 4, garage has 0)', short: true });
    expect(restockToMinimumMessage({ moved: [], short: [{ ...sponge, missing: 1 }], movement_ids: [] }).text).toBe(
      '1 item short: Sponge (needs 1, garage has 0)',
    );
  });
});
