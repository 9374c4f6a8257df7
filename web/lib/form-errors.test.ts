import { describe, expect, it } from 'vitest';
import { errorMessages } from './form-errors';

describe('form messages (docs/product.md "Validation rules")', () => {
  it('lists each message once, in field order', () => {
    const required = 'Please fill out all fields';
    expect(errorMessages({ address: { message: required }, name: { message: required } }, ['name', 'address'])).toEqual([required]);
  });

  it("shows a field's own message, not the required one, for a name that is too long", () => {
    expect(
      errorMessages({ name: { message: 'Name must be at most 200 characters' }, category: { message: 'Please fill out all fields' } }, ['name', 'category']),
    ).toEqual(['Name must be at most 200 characters', 'Please fill out all fields']);
  });
});
