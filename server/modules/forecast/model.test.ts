import { describe, expect, it } from 'vitest';
import { PRIOR_STAYS } from '../../../common/contracts/forecast';
import { expectedUse, learnRates, nightsOf, projectItem, type PropertyHistory, type Rate } from './model';

const history = (unitId: string, stays: number, guestNights: number, used: Record<string, number>): PropertyHistory => ({
  unitId,
  stays,
  guestNights,
  used: new Map(Object.entries(used)),
});

describe('forecast model', () => {
  it('counts nights as calendar days, across a clock change, at least one', () => {
    expect(nightsOf({ arrival: '2026-03-07', departure: '2026-03-10' })).toBe(3);
    expect(nightsOf({ arrival: '2026-10-31', departure: '2026-11-02' })).toBe(2);
    expect(nightsOf({ arrival: '2026-11-02', departure: '2026-11-02' })).toBe(1);
  });

  it('learns per stay and per guest-night, shrinks a property with few stays towards the company median', () => {
    // Toilet paper used at exactly 0.5 a guest-night everywhere; towels 2 a stay everywhere.
    const props = [
      history('a', 10, 40, { tp: 20, towel: 20 }),
      history('b', 10, 80, { tp: 40, towel: 20 }),
      history('c', 2, 4, { tp: 2, towel: 6 }),
      history('d', 0, 0, {}),
    ];
    const { byUnit, company } = learnRates(props, [
      { id: 'tp', defaultPerStay: null },
      { id: 'towel', defaultPerStay: null },
      { id: 'soap', defaultPerStay: 1.5 },
      { id: 'mints', defaultPerStay: null },
    ]);
    // Medians of a 2, b 4, c 1 per stay; 0.5, 0.5, 0.5 per guest-night.
    expect(company.get('tp')).toMatchObject({ perStay: 2, perGuestNight: 0.5, basis: 'company', properties: 3 });
    // Towels: per stay 2, 2, 3 -> 2; per guest-night 0.5, 0.25, 1.5 -> 0.5.
    expect(company.get('towel')).toMatchObject({ perStay: 2, perGuestNight: 0.5 });
    // Toilet paper grows with guest-nights only: the fitted fixed share is 0; towels are nearer 1.
    expect(company.get('tp')!.fixedShare).toBeCloseTo(0, 6);
    expect(company.get('towel')!.fixedShare).toBeGreaterThan(0.7);
    // c has 2 stays: (2 × 3 + 4 × 2) / (2 + 4) towels per stay.
    const cTowel = byUnit.get('c')!.get('towel')!;
    expect(cTowel.perStay).toBeCloseTo((2 * 3 + PRIOR_STAYS * 2) / (2 + PRIOR_STAYS), 10);
    expect(cTowel).toMatchObject({ basis: 'property', stays: 2, guestNights: 4 });
    // a's own 2 per stay equals the company's: shrinkage changes nothing.
    expect(byUnit.get('a')!.get('tp')!.perStay).toBeCloseTo(2, 10);
    // d has no stays: the company's rate.
    expect(byUnit.get('d')!.get('tp')).toMatchObject({ perStay: 2, perGuestNight: 0.5, basis: 'company', stays: 0 });
    // No usage anywhere: the default, else nothing.
    expect(byUnit.get('a')!.get('soap')).toMatchObject({ perStay: 1.5, perGuestNight: 0, fixedShare: 1, basis: 'default' });
    expect(byUnit.get('a')!.get('mints')).toMatchObject({ perStay: 0, basis: 'none' });
  });

  it('expects a stay to use its fixed share per stay and the rest per guest-night', () => {
    const rate = { perStay: 2, perGuestNight: 0.5, fixedShare: 0.25 };
    // 0.25 × 2 + 0.75 × 0.5 × (3 guests × 4 nights)
    expect(expectedUse(rate, { id: 's', arrival: '2026-12-01', departure: '2026-12-05', guests: 3 })).toBeCloseTo(0.5 + 4.5, 10);
  });

  it('projects the stock before each arrival, finds the first short one and what to bring', () => {
    const perStay: Rate = { perStay: 3, perGuestNight: 0, fixedShare: 1, basis: 'property' };
    const stays = [
      { id: 'late', arrival: '2026-12-08', departure: '2026-12-10', guests: 2 },
      { id: 'now', arrival: '2026-11-28', departure: '2026-12-01', guests: 2 },
      { id: 'next', arrival: '2026-12-02', departure: '2026-12-04', guests: 2 },
    ];
    const p = projectItem(8, 2, perStay, stays, '2026-11-30');
    expect(p.stays.map((s) => [s.stay.id, s.underWay, s.before])).toEqual([
      ['now', true, 8],
      ['next', false, 5],
      ['late', false, 2],
    ]);
    expect(p.expectedUse).toBe(9);
    // Before 'late' 2 remain for a stay that uses 3.
    expect(p.shortfall).toEqual({ stay: stays[0], kind: 'runs_out', projected: 2 });
    // max(2, 3) + 6 used before - 8.
    expect(p.bring).toBe(1);

    // Minimum 6: 5 before 'next' covers its 3 but is below 6; max(6, 3) + 6 - 8 before 'late'.
    const belowMinimum = projectItem(8, 6, perStay, stays, '2026-11-30');
    expect(belowMinimum.shortfall).toMatchObject({ stay: stays[2], kind: 'below_minimum', projected: 5 });
    expect(belowMinimum.bring).toBe(4);

    const enough = projectItem(12, 2, perStay, stays, '2026-11-30');
    expect(enough.shortfall).toBeNull();
    expect(enough.bring).toBe(0);
    expect(projectItem(0, 0, perStay, [], '2026-11-30')).toMatchObject({ shortfall: null, bring: 0, expectedUse: 0 });
  });

  it('rounds what to bring up to whole pieces, ignoring float dust', () => {
    const rate: Rate = { perStay: 0.1, perGuestNight: 0, fixedShare: 1, basis: 'property' };
    const tenth = Array.from({ length: 30 }, (_, i) => ({ id: `s${i}`, arrival: `2026-12-${String(i + 1).padStart(2, '0')}`, departure: '2027-01-01', guests: 1 }));
    // 30 × 0.1 = 3.0000000000000004 in floats: 3 to bring, not 4.
    expect(projectItem(0, 0, rate, tenth, '2026-11-30').bring).toBe(3);
  });
});
