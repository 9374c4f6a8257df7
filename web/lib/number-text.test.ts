import { describe, expect, it } from 'vitest';
import { moneyText, parseMoney, parseWholeNumber, wholeNumberText } from './number-text';

describe('number text (docs/product.md "Validation rules")', () => {
  it('reads whole numbers in base 10, anything else as 0', () => {
    expect(parseWholeNumber('12')).toBe(12);
    expect(parseWholeNumber('08')).toBe(8);
    expect(parseWholeNumber('4.9')).toBe(4);
    expect(parseWholeNumber('')).toBe(0);
    expect(parseWholeNumber('abc')).toBe(0);
    expect(parseWholeNumber('-3')).toBe(-3);
  });

  it('reads dollars as decimals, anything else as 0', () => {
    expect(parseMoney('6.5')).toBe(6.5);
    expect(parseMoney('0.01')).toBe(0.01);
    expect(parseMoney('')).toBe(0);
    expect(parseMoney('n/a')).toBe(0);
  });

  it('refuses negative numbers and fractions of a cent', () => {
    expect(wholeNumberText.safeParse('-1').success).toBe(false);
    expect(moneyText.parse('12.34')).toBe(12.34);
    expect(moneyText.safeParse('1.234').error?.issues[0]?.message).toBe('At most 2 decimals');
  });
});
