/**
 * The restock forecast's arithmetic (docs/product.md "Forecast"), on plain numbers so that the
 * server, the backtest (`npm run forecast:backtest`) and the tests share one implementation.
 * Nothing here reads the database or the clock.
 *
 * Usage per stay. For a property p and an item, U is what the ledger counts as usage (docs/product.md
 * "Stock movements and statuses") over the learning window, S the stays that departed in it and
 * GN their guest-nights. The property's own rates are U/S per stay and U/GN per guest-night. The
 * company's rates are the medians of its properties' (those with at least one stay). A property
 * with few stays borrows from the company: its rate is (S·own + K·company) / (S + K), K =
 * {@link PRIOR_STAYS}. A stay of g guests and n nights is expected to use
 *   f·perStay + (1 − f)·perGuestNight·g·n,
 * where f, the item's fixed share, is what part of a stay's use does not grow with its
 * guest-nights (towels: most; toilet paper: none). f is fitted per item by least squares over the
 * company's properties (their totals U against S and GN), clamped to 0..1. At a property's average
 * stay both terms give the same use, so f only shapes how a long or crowded stay differs.
 * When the company has no usage of the item at all, the item's default per stay is used (f = 1).
 */
import { PRIOR_STAYS, type RateBasis } from '../../../common/contracts/forecast';
import type { ShortfallKind } from '../../../common/contracts/forecast-summary';
import { isBelowMinimum } from '../../../common/contracts/stock';

/** Days of ledger history the rates are learned from (docs/product.md "Forecast"). */
export const LEARNING_DAYS = 90;

/** A stay as the model sees it: calendar dates of the property ('YYYY-MM-DD'), guests at least 1. */
export interface ModelStay {
  id: string;
  arrival: string;
  departure: string;
  guests: number;
}

const DAY_MS = 86_400_000;

/** The UTC midnight of a 'YYYY-MM-DD' date, in milliseconds. */
const utcMidnight = (day: string): number => Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));

/**
 * Nights of a stay: calendar days from arrival to departure, at least 1. Both dates are taken as
 * UTC midnights, and UTC has no clock changes, so the days between are whole multiples of 24 h:
 * plain arithmetic, as the forecast counts the nights of every stay once per item (date-fns's
 * calendar difference costs a hundred times more).
 */
export function nightsOf(stay: Pick<ModelStay, 'arrival' | 'departure'>): number {
  return Math.max(1, Math.round((utcMidnight(stay.departure) - utcMidnight(stay.arrival)) / DAY_MS));
}

/** Guest-nights of a stay. */
export const guestNightsOf = (stay: ModelStay): number => stay.guests * nightsOf(stay);

/** What one property used of each item over the learning window, and the stays that departed in it. */
export interface PropertyHistory {
  unitId: string;
  stays: number;
  guestNights: number;
  /** Usage per item id, in pieces (> 0); items absent used nothing. */
  used: ReadonlyMap<string, number>;
}

/** The item as learning needs it. */
export interface ItemDefaults {
  id: string;
  /** Pieces per stay when the company has no usage of the item; null: none. */
  defaultPerStay: number | null;
}

/** A learned rate of an item, at a property or for the company. */
export interface Rate {
  perStay: number;
  perGuestNight: number;
  /** Share of a stay's use that does not grow with guest-nights, 0..1. */
  fixedShare: number;
  basis: RateBasis;
}

/** A property's rate, with the stays it was learned from. */
export interface PropertyRate extends Rate {
  stays: number;
  guestNights: number;
}

/** The company's rate of an item, with how many properties it was learned from. */
export interface CompanyRate extends Rate {
  properties: number;
}

/** What {@link learnRates} finds: per unit and item, and per item for the company. */
export interface LearnedRates {
  byUnit: Map<string, Map<string, PropertyRate>>;
  company: Map<string, CompanyRate>;
}

/** Median of a non-empty list. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * The fixed share f minimising Σ (U − f·A − (1 − f)·B)², with A = perStay·S and B =
 * perGuestNight·GN of each property; 1 when the properties cannot tell the two apart.
 */
function fitFixedShare(properties: readonly PropertyHistory[], itemId: string, perStay: number, perGuestNight: number): number {
  let num = 0;
  let den = 0;
  for (const p of properties) {
    const a = perStay * p.stays;
    const b = perGuestNight * p.guestNights;
    const u = p.used.get(itemId) ?? 0;
    num += (u - b) * (a - b);
    den += (a - b) * (a - b);
  }
  if (den <= 1e-12) return 1;
  return Math.min(1, Math.max(0, num / den));
}

/**
 * Learns every property's and the company's usage rate of every item from the properties'
 * histories (module comment). Properties with no stay in the window get the company's rate.
 */
export function learnRates(properties: readonly PropertyHistory[], items: readonly ItemDefaults[]): LearnedRates {
  const withStays = properties.filter((p) => p.stays > 0 && p.guestNights > 0);
  const company = new Map<string, CompanyRate>();
  const byUnit = new Map<string, Map<string, PropertyRate>>(properties.map((p) => [p.unitId, new Map()]));

  for (const item of items) {
    const totalUsed = withStays.reduce((sum, p) => sum + (p.used.get(item.id) ?? 0), 0);
    let companyRate: CompanyRate;
    if (totalUsed > 0) {
      const perStay = median(withStays.map((p) => (p.used.get(item.id) ?? 0) / p.stays));
      const perGuestNight = median(withStays.map((p) => (p.used.get(item.id) ?? 0) / p.guestNights));
      const fixedShare = fitFixedShare(withStays, item.id, perStay, perGuestNight);
      companyRate = { perStay, perGuestNight, fixedShare, basis: 'company', properties: withStays.length };
    } else if (item.defaultPerStay !== null) {
      companyRate = { perStay: item.defaultPerStay, perGuestNight: 0, fixedShare: 1, basis: 'default', properties: 0 };
    } else {
      companyRate = { perStay: 0, perGuestNight: 0, fixedShare: 1, basis: 'none', properties: 0 };
    }
    company.set(item.id, companyRate);

    for (const p of properties) {
      const learnsOwn = companyRate.basis === 'company' && p.stays > 0 && p.guestNights > 0;
      const rate: PropertyRate = learnsOwn
        ? {
            perStay: (p.stays * ((p.used.get(item.id) ?? 0) / p.stays) + PRIOR_STAYS * companyRate.perStay) / (p.stays + PRIOR_STAYS),
            perGuestNight:
              (p.stays * ((p.used.get(item.id) ?? 0) / p.guestNights) + PRIOR_STAYS * companyRate.perGuestNight) / (p.stays + PRIOR_STAYS),
            fixedShare: companyRate.fixedShare,
            basis: 'property',
            stays: p.stays,
            guestNights: p.guestNights,
          }
        : { ...companyRate, stays: p.stays, guestNights: p.guestNights };
      byUnit.get(p.unitId)!.set(item.id, rate);
    }
  }
  return { byUnit, company };
}

/** Pieces a stay is expected to use of an item at `rate` (module comment). */
export function expectedUse(rate: Pick<Rate, 'perStay' | 'perGuestNight' | 'fixedShare'>, stay: ModelStay): number {
  return rate.fixedShare * rate.perStay + (1 - rate.fixedShare) * rate.perGuestNight * guestNightsOf(stay);
}

/** A stay in a projection: its expected use and the stock expected just before it arrives. */
export interface ProjectedStay {
  stay: ModelStay;
  underWay: boolean;
  expectedUse: number;
  /** Expected stock just before the arrival (for a stay under way: now). */
  before: number;
}

/** One item of one property over the horizon. */
export interface ItemProjection {
  stays: ProjectedStay[];
  expectedUse: number;
  /** The first arrival that would start short, else null. */
  shortfall: { stay: ModelStay; kind: ShortfallKind; projected: number } | null;
  /** Whole pieces to bring now so that no arrival of the horizon starts short. */
  bring: number;
}

/** Rounding slack: expected uses are sums of fractions, and 2.0000000001 pieces are 2. */
const EPSILON = 1e-9;

/**
 * Projects one item of one property (docs/product.md "Forecast"): from `quantity` now, each stay
 * in arrival order uses its expected use; a stay under way (arrived before `today`) uses it too
 * but is not checked. An arrival starts short when the stock before it does not cover the stay's
 * expected use (`runs_out`) or is below `minimum` (`below_minimum`, common/contracts/stock.ts
 * `isBelowMinimum`; a rounding tail does not count). `bring` is the least whole
 * number that, added now, leaves no arrival short: max over arrivals of
 * (max(minimum, use of that stay) + use of the stays before it) − quantity.
 * @param stays the property's stays that have not departed before `today`, any order.
 */
export function projectItem(quantity: number, minimum: number, rate: Rate, stays: readonly ModelStay[], today: string): ItemProjection {
  const ordered = [...stays].sort((a, b) => (a.arrival < b.arrival ? -1 : a.arrival > b.arrival ? 1 : a.id < b.id ? -1 : 1));
  let usedBefore = 0;
  let need = 0;
  let shortfall: ItemProjection['shortfall'] = null;
  const projected: ProjectedStay[] = [];
  for (const stay of ordered) {
    const use = expectedUse(rate, stay);
    const before = quantity - usedBefore;
    const underWay = stay.arrival < today;
    projected.push({ stay, underWay, expectedUse: use, before });
    if (!underWay) {
      need = Math.max(need, Math.max(minimum, use) + usedBefore - quantity);
      if (!shortfall) {
        if (before + EPSILON < use) shortfall = { stay, kind: 'runs_out', projected: before };
        else if (isBelowMinimum(before + EPSILON, minimum)) shortfall = { stay, kind: 'below_minimum', projected: before };
      }
    }
    usedBefore += use;
  }
  return { stays: projected, expectedUse: usedBefore, shortfall, bring: Math.max(0, Math.ceil(need - EPSILON)) };
}
