import { describe, expect, it } from 'vitest';
import { formatDollars, formatSignedQuantity } from './format';

describe('format', () => {
  it('shows dollars with 2 decimals, $0.00 when missing', () => {
    expect(formatDollars(6.5)).toBe('$6.50');
    expect(formatDollars(1234)).toBe('$1,234.00');
    expect(formatDollars(0)).toBe('$0.00');
    expect(formatDollars(null)).toBe('$0.00');
    expect(formatDollars(undefined)).toBe('$0.00');
  });

  it('signs quantity changes', () => {
    expect(formatSignedQuantity(3)).toBe('+3');
    expect(formatSignedQuantity(-2)).toBe('-2');
    expect(formatSignedQuantity(0)).toBe('0');
  });
});
