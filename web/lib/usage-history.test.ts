/** The line that says a property's history is too short to learn its usage from. */
import { describe, expect, it } from 'vitest';
import { usageHistoryText } from './usage-history';

describe('usageHistoryText', () => {
  it('says how many past stays there are to learn from, and what the forecast uses meanwhile', () => {
    expect(usageHistoryText(0)).toBe("No past stays to learn this unit's usage from yet: the forecast uses the company's usage.");
    expect(usageHistoryText(1)).toBe("1 past stay to learn from: the forecast leans on the company's usage until there are 4.");
    expect(usageHistoryText(3)).toBe("3 past stays to learn from: the forecast leans on the company's usage until there are 4.");
  });

  it('says nothing with 4 past stays or more, or when no usage is learned from stays', () => {
    expect(usageHistoryText(4)).toBeNull();
    expect(usageHistoryText(12)).toBeNull();
    expect(usageHistoryText(null)).toBeNull();
  });
});
