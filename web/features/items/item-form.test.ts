import { describe, expect, it } from 'vitest';
import { draftFromItem, emptyItemDraft, ITEM_REQUIRED_MESSAGE, itemForm } from './item-form';

describe('item form (docs/product.md "Validation rules")', () => {
  it('turns the typed text into the request body, non-numbers counting as 0', () => {
    expect(itemForm.parse({ name: ' Bath Towel ', count_cost: '4.25', category: 'Linen', minimum_threshold: '6' })).toEqual({
      name: 'Bath Towel',
      count_cost: 4.25,
      category: 'Linen',
      minimum_threshold: 6,
    });
    expect(itemForm.parse({ name: 'Soap', count_cost: '', category: 'Bath', minimum_threshold: 'x' })).toEqual({
      name: 'Soap',
      count_cost: 0,
      category: 'Bath',
      minimum_threshold: 0,
    });
  });

  it('reads the threshold as a whole number in base 10', () => {
    expect(itemForm.parse({ name: 'A', count_cost: '0', category: 'B', minimum_threshold: '010' }).minimum_threshold).toBe(10);
    expect(itemForm.parse({ name: 'A', count_cost: '0', category: 'B', minimum_threshold: '3.9' }).minimum_threshold).toBe(3);
  });

  it('asks for name and category with one message', () => {
    const result = itemForm.safeParse(emptyItemDraft);
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['name', ITEM_REQUIRED_MESSAGE],
      ['category', ITEM_REQUIRED_MESSAGE],
    ]);
  });

  it('fills the edit form from an item', () => {
    expect(draftFromItem({ id: 'i1', name: 'Towel', category: 'Linen', minimum_threshold: 2, count_cost: 3.5 })).toEqual({
      name: 'Towel',
      count_cost: '3.5',
      category: 'Linen',
      minimum_threshold: '2',
    });
  });
});
