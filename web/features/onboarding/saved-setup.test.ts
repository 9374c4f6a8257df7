/** A reopened step starts from what was saved; the properties step foresees what filling takes. */
import { describe, expect, it } from 'vitest';
import type { OnboardingSetup } from '../../../common/contracts/onboarding';
import { coverage, garageDraftFrom, itemsDraftFrom, notCoveredMessage } from './saved-setup';

const towel = { id: 't', name: 'Bath Towel', category: 'Linen', minimum_threshold: 4, count_cost: 6.5 };
const pods = { id: 'p', name: 'Coffee Pods', category: 'Kitchen', minimum_threshold: 10, count_cost: 0.45 };
const soap = { id: 's', name: 'Soap', category: 'Bath', minimum_threshold: 0, count_cost: 0 };
const saved: OnboardingSetup = {
  items: [towel, pods, soap],
  garage: { id: 'g', name: 'Main Storage', address: '1 Depot Road', stock: [{ item_id: 't', quantity: 9 }] },
};
const blankItem = { name: '', category: '', minimum_threshold: '0', count_cost: '0' };

describe('itemsDraftFrom', () => {
  it('opens with the saved items when nothing is typed on this device', () => {
    expect(itemsDraftFrom({ items: [blankItem] }, saved.items).items).toEqual([
      { id: 't', name: 'Bath Towel', category: 'Linen', minimum_threshold: '4', count_cost: '6.5' },
      { id: 'p', name: 'Coffee Pods', category: 'Kitchen', minimum_threshold: '10', count_cost: '0.45' },
      { id: 's', name: 'Soap', category: 'Bath', minimum_threshold: '0', count_cost: '0' },
    ]);
    expect(itemsDraftFrom({ items: [blankItem] }, []).items).toEqual([blankItem]);
  });

  it('keeps what was typed, each row carrying the id of the saved item it edits', () => {
    const draft = {
      items: [
        { ...blankItem, id: 't', name: 'Bath Towels', category: 'Linen' },
        { ...blankItem, name: 'coffee pods', category: 'Kitchen' },
        { ...blankItem, id: 'gone', name: 'New', category: 'X' },
        { ...blankItem, name: 'Bath Towel', category: 'Linen' },
      ],
    };
    expect(itemsDraftFrom(draft, saved.items).items.map((i) => i.id)).toEqual(['t', 'p', undefined, undefined]);
  });
});

describe('garageDraftFrom', () => {
  it('opens with the saved place and quantities, one per saved item, keeping what was typed', () => {
    expect(garageDraftFrom({ name: '', address: '', stock: [] }, saved)).toEqual({
      name: 'Main Storage',
      address: '1 Depot Road',
      stock: [
        { item_id: 't', quantity: '9' },
        { item_id: 'p', quantity: '' },
        { item_id: 's', quantity: '' },
      ],
    });
    const typed = garageDraftFrom({ name: 'Depot', address: '', stock: [{ item_id: 'p', quantity: '30' }, { item_id: 'x', quantity: '1' }] }, saved);
    expect(typed).toMatchObject({ name: 'Depot', address: '' });
    expect(typed.stock.map((s) => s.quantity)).toEqual(['9', '30', '']);
  });
});

describe('coverage', () => {
  it('counts each item with a minimum: wanted by all properties, held in storage, missing', () => {
    expect(coverage(saved, 3)).toEqual([
      { item_id: 't', item_name: 'Bath Towel', wanted: 12, held: 9, missing: 3 },
      { item_id: 'p', item_name: 'Coffee Pods', wanted: 30, held: 0, missing: 30 },
    ]);
    expect(coverage({ items: saved.items, garage: null }, 1).map((c) => c.held)).toEqual([0, 0]);
  });

  it('says what storage could not cover', () => {
    expect(notCoveredMessage([{ item_id: 't', item_name: 'Bath Towel', missing: 3 }, { item_id: 'p', item_name: 'Coffee Pods', missing: 5 }])).toBe(
      'Storage could not cover 3 Bath Towel, 5 Coffee Pods. Add them to storage, then use Restock to minimum on each property.',
    );
  });
});
