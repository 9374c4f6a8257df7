import { describe, expect, it } from 'vitest';
import { formatCalendarDay, formatDollars, formatPerStay, formatSignedQuantity } from './format';

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

  it('shows a calendar day as written, whatever the browser zone', () => {
    expect(formatCalendarDay('2026-11-27')).toBe('Fri, Nov 27');
    expect(formatCalendarDay('2027-01-01')).toBe('Fri, Jan 1');
  });

  it('rounds a usage per stay to one decimal', () => {
    expect(formatPerStay(2.14)).toBe('about 2.1 per stay');
    expect(formatPerStay(2)).toBe('about 2 per stay');
    expect(formatPerStay(0.96)).toBe('about 1 per stay');
    expect(formatPerStay(0.01)).toBe('less than 0.1 per stay');
  });
});
