import { describe, expect, it } from 'vitest';
import { hasMissingRequiredField, itemsForm, ownMessage, REQUIRED_FIELDS_MESSAGE } from './forms';

describe('items step form (docs/product.md "Validation rules")', () => {
  it('turns the typed text into the request body, non-numbers counting as 0', () => {
    const parsed = itemsForm.parse({
      items: [
        { name: ' Towel ', category: 'Linen', minimum_threshold: '4', count_cost: '6.5' },
        { name: 'Soap', category: 'Bath', minimum_threshold: '', count_cost: 'abc' },
      ],
    });
    expect(parsed.items).toEqual([
      { name: 'Towel', category: 'Linen', minimum_threshold: 4, count_cost: 6.5 },
      { name: 'Soap', category: 'Bath', minimum_threshold: 0, count_cost: 0 },
    ]);
  });

  it('refuses missing names, negative thresholds and fractions of a cent', () => {
    const result = itemsForm.safeParse({
      items: [{ name: '', category: 'Linen', minimum_threshold: '-1', count_cost: '1.234' }],
    });
    expect(result.success).toBe(false);
    const messages = result.error?.issues.map((issue) => [issue.path.join('.'), issue.message]);
    expect(messages).toEqual([
      ['items.0.name', REQUIRED_FIELDS_MESSAGE],
      ['items.0.minimum_threshold', 'Minimum threshold must be 0 or more'],
      ['items.0.count_cost', 'Count cost can have at most 2 decimals'],
    ]);
  });

  it('refuses a fraction of a threshold and an item named twice', () => {
    const result = itemsForm.safeParse({
      items: [
        { name: 'Bath Towel', category: 'Linen', minimum_threshold: '2.5', count_cost: '0' },
        { name: 'bath towel', category: 'Linen', minimum_threshold: '0', count_cost: '0' },
      ],
    });
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['items.0.minimum_threshold', 'Minimum threshold must be a whole number'],
    ]);
    const twice = itemsForm.safeParse({
      items: [
        { name: 'Bath Towel', category: 'Linen', minimum_threshold: '2', count_cost: '0' },
        { name: 'bath towel', category: 'Linen', minimum_threshold: '0', count_cost: '0' },
      ],
    });
    expect(twice.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([['items', 'An item named bath towel already exists']]);
  });

  it('shows a field its own message, and the required one once above', () => {
    expect(ownMessage({ message: REQUIRED_FIELDS_MESSAGE })).toBeUndefined();
    expect(ownMessage({ message: 'Name must be at most 200 characters' })).toBe('Name must be at most 200 characters');
  });

  it('spots a missing required field among row errors', () => {
    expect(hasMissingRequiredField([undefined, { category: { message: REQUIRED_FIELDS_MESSAGE } }])).toBe(true);
    expect(hasMissingRequiredField([{ count_cost: { message: 'Count cost can have at most 2 decimals' } }])).toBe(false);
    expect(hasMissingRequiredField(undefined)).toBe(false);
  });
});
