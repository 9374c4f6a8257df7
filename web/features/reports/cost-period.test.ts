import { describe, expect, it } from 'vitest';
import { customRangeQuery, localIsoDate } from './cost-period';

describe('custom date range (docs/product.md "Validation rules")', () => {
  it('needs both dates', () => {
    expect(customRangeQuery('', '')).toEqual({ error: 'Please select both start and end dates' });
    expect(customRangeQuery('2025-03-01', '')).toEqual({ error: 'Please select both start and end dates' });
    expect(customRangeQuery('', '2025-03-01')).toEqual({ error: 'Please select both start and end dates' });
  });

  it('refuses a start after the end', () => {
    expect(customRangeQuery('2025-03-02', '2025-03-01')).toEqual({ error: 'Start date must be before end date' });
    expect(customRangeQuery('2024-12-31', '2024-02-01')).toEqual({ error: 'Start date must be before end date' });
  });

  it('accepts a range, one day included', () => {
    expect(customRangeQuery('2025-02-27', '2025-03-01')).toEqual({ query: { period: 'custom', start: '2025-02-27', end: '2025-03-01' } });
    expect(customRangeQuery('2025-03-01', '2025-03-01')).toEqual({ query: { period: 'custom', start: '2025-03-01', end: '2025-03-01' } });
  });
});

describe('localIsoDate', () => {
  it("gives the browser's calendar day", () => {
    expect(localIsoDate(new Date(2025, 0, 5, 23, 59))).toBe('2025-01-05');
    expect(localIsoDate(new Date(2025, 11, 31, 0, 1))).toBe('2025-12-31');
  });
});
