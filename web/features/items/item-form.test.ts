import { describe, expect, it } from 'vitest';
import { draftFromItem, emptyItemDraft, itemForm } from './item-form';
import { SERVICE_LEVEL_MESSAGE } from '../../../common/contracts/forecast';

const ITEM_REQUIRED_MESSAGE = 'Please fill out all fields';

describe('item form (docs/product.md "Validation rules")', () => {
  it('turns the typed text into the request body, non-numbers counting as 0', () => {
    expect(itemForm.parse({ name: ' Bath Towel ', count_cost: '4.25', category: 'Linen', minimum_threshold: '6', usage_per_stay_default: '', service_level: '' })).toEqual({
      name: 'Bath Towel',
      count_cost: 4.25,
      category: 'Linen',
      minimum_threshold: 6,
      usage_per_stay_default: null,
      service_level: null,
    });
    expect(itemForm.parse({ name: 'Soap', count_cost: '', category: 'Bath', minimum_threshold: 'x', usage_per_stay_default: '', service_level: '' })).toEqual({
      name: 'Soap',
      count_cost: 0,
      category: 'Bath',
      minimum_threshold: 0,
      usage_per_stay_default: null,
      service_level: null,
    });
  });

  it('reads the threshold as a whole number in base 10, refusing a fraction instead of cutting it', () => {
    expect(itemForm.parse({ name: 'A', count_cost: '0', category: 'B', minimum_threshold: '010', usage_per_stay_default: '', service_level: '' }).minimum_threshold).toBe(10);
    const fraction = itemForm.safeParse({ name: 'A', count_cost: '0', category: 'B', minimum_threshold: '2.5', usage_per_stay_default: '', service_level: '' });
    expect(fraction.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['minimum_threshold', 'Minimum threshold must be a whole number'],
    ]);
  });

  it('names the field and the limit: a long name, a cost with fractions of a cent', () => {
    const result = itemForm.safeParse({ name: 'x'.repeat(10_000), count_cost: '1.234', category: 'B', minimum_threshold: '0', usage_per_stay_default: '', service_level: '' });
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

  it('sends the item’s own service level, empty as the company’s, and refuses one not offered', () => {
    const draft = { ...emptyItemDraft, name: 'Pods', category: 'Kitchen' };
    expect(itemForm.parse({ ...draft, service_level: '99' }).service_level).toBe(99);
    expect(itemForm.parse(draft).service_level).toBeNull();
    expect(itemForm.safeParse({ ...draft, service_level: '96' }).error?.issues.map((issue) => issue.message)).toEqual([SERVICE_LEVEL_MESSAGE]);
  });

  it('fills the edit form from an item', () => {
    expect(draftFromItem({ id: 'i1', name: 'Towel', category: 'Linen', minimum_threshold: 2, count_cost: 3.5, usage_per_stay_default: 1.5, service_level: 99 })).toEqual({
      name: 'Towel',
      count_cost: '3.5',
      category: 'Linen',
      minimum_threshold: '2',
      usage_per_stay_default: '1.5',
      service_level: '99',
    });
    expect(draftFromItem({ id: 'i1', name: 'Towel', category: 'Linen', minimum_threshold: 2, count_cost: 3.5, usage_per_stay_default: null }).usage_per_stay_default).toBe('');
  });

  it('reads the default usage per stay: empty is none, decimals up to 2', () => {
    const draft = { name: 'Towel', count_cost: '0', category: 'Linen', minimum_threshold: '0', service_level: '' };
    expect(itemForm.parse({ ...draft, usage_per_stay_default: '' }).usage_per_stay_default).toBeNull();
    expect(itemForm.parse({ ...draft, usage_per_stay_default: '2.25' }).usage_per_stay_default).toBe(2.25);
    expect(itemForm.safeParse({ ...draft, usage_per_stay_default: '2.255' }).error?.issues[0]?.message).toBe('Usage per stay can have at most 2 decimals');
    expect(itemForm.safeParse({ ...draft, usage_per_stay_default: '-1' }).error?.issues[0]?.message).toBe('Usage per stay must be 0 or more');
  });
});
