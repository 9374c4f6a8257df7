import { describe, expect, it } from 'vitest';
import { draftFromItem, emptyItemDraft, itemForm } from './item-form';

const ITEM_REQUIRED_MESSAGE = 'Please fill out all fields';

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

  it('reads the threshold as a whole number in base 10, refusing a fraction instead of cutting it', () => {
    expect(itemForm.parse({ name: 'A', count_cost: '0', category: 'B', minimum_threshold: '010' }).minimum_threshold).toBe(10);
    const fraction = itemForm.safeParse({ name: 'A', count_cost: '0', category: 'B', minimum_threshold: '2.5' });
    expect(fraction.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['minimum_threshold', 'Minimum threshold must be a whole number'],
    ]);
  });

  it('names the field and the limit: a long name, a cost with fractions of a cent', () => {
    const result = itemForm.safeParse({ name: 'x'.repeat(10_000), count_cost: '1.234', category: 'B', minimum_threshold: '0' });
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['name', 'Name must be at most 200 characters'],
      ['count_cost', 'Count cost can have at most 2 decimals'],
    ]);
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
