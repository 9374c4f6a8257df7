import { describe, expect, it } from 'vitest';
import type { Tier } from '../../../common/contracts/billing';
import { formatPlanAmount, limitText, listedFeatures, planPrice, tierLimits, usageLevel, usageText } from './plan-display';

const enterprise: Tier = {
  id: '7f7f0c39-0d0e-4a43-9d5f-2f8c9e3a8b11',
  name: 'Enterprise',
  description: 'For large portfolios, priced per property',
  price: 4,
  yearly_price: 43,
  per_unit: true,
  max_units: 999999,
  max_items: 1000000,
  max_garages: 999999,
  max_users: 50,
  features: {},
};

describe('plan display', () => {
  it('shows whole dollars without cents and keeps cents when there are some', () => {
    expect(formatPlanAmount(29)).toBe('$29');
    expect(formatPlanAmount(1200)).toBe('$1,200');
    expect(formatPlanAmount(4.5)).toBe('$4.50');
  });

  it('prices a plan per month or per year, and per unit for Enterprise', () => {
    const starter = { price: 29, yearly_price: 310, per_unit: false };
    expect(planPrice(starter, 'year')).toEqual({ amount: '$310', period: '/year' });
    expect(planPrice(starter, 'month')).toEqual({ amount: '$29', period: '/month' });
    expect(planPrice(enterprise, 'month')).toEqual({ amount: '$4', period: '/unit/month' });
    expect(planPrice(enterprise, 'year')).toEqual({ amount: '$43', period: '/unit/year' });
  });

  it("reads 999999 or more as 'Unlimited' except for users", () => {
    expect(limitText('units', 10)).toBe('Up to 10 units');
    expect(limitText('garages', 999999)).toBe('Unlimited garages');
    expect(limitText('users', 999999)).toBe('Up to 999,999 users');
    expect(tierLimits(enterprise)).toEqual(['Unlimited units', 'Unlimited items', 'Unlimited garages', 'Up to 50 users']);
  });

  it('tells how much of a limit is used', () => {
    expect(usageText(3, 50)).toBe('3 of 50');
    expect(usageText(3, 999999)).toBe('3 (Unlimited)');
    expect(usageLevel(3, 50)).toBe('ok');
    expect(usageLevel(40, 50)).toBe('near');
    expect(usageLevel(50, 50)).toBe('full');
    expect(usageLevel(60, 50)).toBe('full');
    expect(usageLevel(999998, 999999)).toBe('ok');
  });

  it('lists no feature that is not built yet', () => {
    expect(listedFeatures).toEqual(['cost_reports', 'ai_reports', 'ai_scanner', 'listing_import', 'priority_support']);
  });
});
