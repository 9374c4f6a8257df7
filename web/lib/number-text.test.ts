import { describe, expect, it } from 'vitest';
import { money, wholeNumber } from '../../common/contracts/fields';
import { numberText, parseNumber } from './number-text';

describe('number text (docs/product.md "Validation rules")', () => {
  it('reads numbers as written, empty or anything else as 0', () => {
    expect(parseNumber('12')).toBe(12);
    expect(parseNumber('08')).toBe(8);
    expect(parseNumber('4.9')).toBe(4.9);
    expect(parseNumber('6.5')).toBe(6.5);
    expect(parseNumber('')).toBe(0);
    expect(parseNumber('abc')).toBe(0);
    expect(parseNumber('-3')).toBe(-3);
  });

  it('refuses fractions where whole numbers are needed, naming the field, instead of cutting them', () => {
    const threshold = numberText(wholeNumber('Minimum threshold'));
    expect(threshold.parse('3')).toBe(3);
    expect(threshold.parse('')).toBe(0);
    expect(threshold.safeParse('2.5').error?.issues[0]?.message).toBe('Minimum threshold must be a whole number');
    expect(threshold.safeParse('-1').error?.issues[0]?.message).toBe('Minimum threshold must be 0 or more');
    expect(threshold.safeParse('1000001').error?.issues[0]?.message).toBe('Minimum threshold must be at most 1,000,000');
    expect(numberText(wholeNumber('Quantity', 1)).safeParse('1.5').error?.issues[0]?.message).toBe('Quantity must be a whole number');
  });

  it('refuses negative dollars and fractions of a cent', () => {
    const cost = numberText(money('Count cost'));
    expect(cost.parse('12.34')).toBe(12.34);
    expect(cost.safeParse('1.234').error?.issues[0]?.message).toBe('Count cost can have at most 2 decimals');
    expect(cost.safeParse('-1').error?.issues[0]?.message).toBe('Count cost must be 0 or more');
  });
});
