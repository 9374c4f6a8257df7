/**
 * A second company for the forecast backtest (docs/forecast.md "Backtest", "The independent
 * company"), built in code as a {@link BacktestHistory}: its use is NOT drawn from the model's
 * own formula f·perStay + (1 − f)·perGuestNight·g·n (server/modules/forecast/model.ts), so its
 * figures are not a fit to our own simulation. Same seed, same company; nothing reads the clock.
 *
 * The company: 20 mountain cabins (the recording quotas' sum) and 20 items a cabin turnover stocks
 * ({@link INDEPENDENT_ITEMS}: breakfast, welcome gifts, outdoor, hot tub, guest amenities, pet
 * supplies; none of the demo's kinds, scripts/demo/catalogue.ts), over 140 days
 * ({@link HISTORY_DAYS}) from {@link FIRST_DAY}, with the bookings of the 21 days after.
 *
 * The process:
 * - a listing's typical guests (2–8) and a multiplier of everything it uses (lognormal, σ 0.35:
 *   a hot tub, a fire pit, a host's generous welcome), times a multiplier per item (σ 0.3);
 * - back-to-back stays of 1–10 nights (most of 2–4), gaps of 0–7 days; the party is often ABOVE
 *   the listing's typical guests (+1 to +3 for 44 % of stays, −1 for 16 %); a property takes its
 *   bookings, with a chance of 30 %, from a calendar link that gives no guests, so the forecast
 *   counts the typical guests there, as the product does (`stayGuests`);
 * - each stay's true use of an item: none with probability 1 − p (zero-inflated: a party that
 *   never lights the fire); otherwise base · property · (party/2)^γ · (nights/3)^ν, times a
 *   lognormal spread of mean 1 (σ per item), times 2.5 for a heavy-using party (6 % of stays),
 *   rounded to whole pieces by chance. γ and ν differ per item (firewood grows with nights, not
 *   guests; slippers with guests, not nights), which no single fixed share reproduces;
 * - how the property records usage, as real teams do: 9 properties at each checkout (the stay's
 *   use on its departure day), 7 only by a weekly count (the use of the stays departed since the
 *   last count, recorded on the property's count weekday), 4 late (each stay's use 1–3 days
 *   after its departure). A use recorded after the history's last day is not in it.
 *
 * `usage` holds what was recorded, the only thing the model learns from; each stay's `trueUse` is
 * what the replay judges the forecast and the restocking policies by (replay.ts `consumedUsage`).
 */
import { stayGuests } from '../../server/modules/forecast/model-sql';
import type { BacktestHistory, BacktestItem, BacktestStay } from './replay';
import { seededRandom } from '../lib/seeded-random';

/** How a property's team records usage (module comment). */
export type RecordingMode = 'checkout' | 'weekly' | 'late';

/** An item of the independent company with the parameters its use is drawn from. */
export interface IndependentItem extends BacktestItem {
  /** Mean pieces a stay of 2 guests and 3 nights that uses the item uses, at a property of multiplier 1. */
  base: number;
  /** Exponent of the party size (party/2)^γ. */
  guestPower: number;
  /** Exponent of the nights (nights/3)^ν. */
  nightPower: number;
  /** Share of stays that use the item at all, 0..1. */
  useShare: number;
  /** σ of the lognormal spread of a stay's use around its mean. */
  spread: number;
}

/** A property of the independent company. */
export interface IndependentProperty {
  id: string;
  /** The listing's typical guests. */
  typicalGuests: number;
  /** Whether its bookings give the party's size; false: a calendar link, the forecast counts the typical guests. */
  guestsGiven: boolean;
  recording: RecordingMode;
  /** For a weekly count: the weekday it counts on, as day index modulo 7; null otherwise. */
  countWeekday: number | null;
  /** Multiplier of everything the property's stays use. */
  multiplier: number;
}

/** A stay with its true party and the day its use was recorded. */
export interface IndependentStay extends BacktestStay {
  trueUse: number[];
  /** Guests who came; `guests` is what the forecast is told. */
  party: number;
  /** Day index its use was recorded on (may lie after the history: then not recorded in it). */
  recordedDay: number;
}

/** A generated history: the items with their use parameters, the stays with their true use. */
export interface IndependentHistory extends BacktestHistory {
  items: IndependentItem[];
  stays: IndependentStay[];
}

/** The generated company: its history with the stays' true use, and its properties. */
export interface IndependentCompany {
  name: string;
  timeZone: string;
  history: IndependentHistory;
  properties: IndependentProperty[];
  /** Stock of every property and item at the start of any day a replay starts on: twice each item's minimum. */
  startStock: number[][];
}

/** Days of the history (day 0 is {@link FIRST_DAY}). */
export const HISTORY_DAYS = 140;
/** Days of bookings after the history, so that the pick lists of its last days see stays ahead. */
const FUTURE_DAYS = 21;
/** The history's first calendar day, fixed so that the company does not change with the clock. */
const FIRST_DAY = '2026-01-05';
/** Properties per recording mode (module comment); their sum is the company's properties. */
const RECORDING_QUOTA: Record<RecordingMode, number> = { checkout: 9, weekly: 7, late: 4 };
/** Share of stays by a heavy-using party, and what they use more. */
const HEAVY_SHARE = 0.06;
const HEAVY_FACTOR = 2.5;
/** Share of properties whose bookings come from a calendar link without guests. */
const LINK_SHARE = 0.3;

type ItemSpec = Omit<IndependentItem, 'id' | 'defaultPerStay'> & { defaultPerStay?: number };

/**
 * The catalogue: name, category, the minimum threshold an operator sets (about what a full,
 * long stay goes through), and the use parameters ({@link IndependentItem}). Figures are
 * plausible, not sourced.
 */
const ITEM_SPECS: ItemSpec[] = [
  { name: 'Oatmeal Packets', category: 'Breakfast', minimum: 8, base: 4, guestPower: 0.9, nightPower: 0.7, useShare: 0.55, spread: 0.5 },
  { name: 'Granola Bars', category: 'Breakfast', minimum: 8, base: 4, guestPower: 1, nightPower: 0.5, useShare: 0.7, spread: 0.5 },
  { name: 'Hot Cocoa Packets', category: 'Breakfast', minimum: 6, base: 3, guestPower: 0.8, nightPower: 0.6, useShare: 0.5, spread: 0.6 },
  { name: 'Maple Syrup Minis', category: 'Breakfast', minimum: 4, base: 2, guestPower: 0.6, nightPower: 0.4, useShare: 0.45, spread: 0.4 },
  { name: 'Welcome Snack Box', category: 'Welcome', minimum: 2, base: 1, guestPower: 0, nightPower: 0, useShare: 0.97, spread: 0, defaultPerStay: 1 },
  { name: 'Bottle of Wine', category: 'Welcome', minimum: 2, base: 1, guestPower: 0.3, nightPower: 0.2, useShare: 0.75, spread: 0.2, defaultPerStay: 1 },
  { name: 'Sparkling Water Cans', category: 'Welcome', minimum: 6, base: 4, guestPower: 1, nightPower: 0.6, useShare: 0.8, spread: 0.5 },
  { name: 'Firewood Bundle', category: 'Outdoor', minimum: 4, base: 2.5, guestPower: 0.3, nightPower: 0.9, useShare: 0.6, spread: 0.5 },
  { name: 'Fire Starter Cubes', category: 'Outdoor', minimum: 6, base: 3, guestPower: 0.2, nightPower: 0.8, useShare: 0.6, spread: 0.4 },
  { name: 'Propane Canister', category: 'Outdoor', minimum: 2, base: 1, guestPower: 0.4, nightPower: 0.8, useShare: 0.35, spread: 0.3 },
  { name: 'Sunscreen Packets', category: 'Outdoor', minimum: 6, base: 4, guestPower: 1, nightPower: 0.5, useShare: 0.35, spread: 0.6 },
  { name: 'Bug Spray Wipes', category: 'Outdoor', minimum: 6, base: 4, guestPower: 1, nightPower: 0.5, useShare: 0.3, spread: 0.6 },
  { name: "S'mores Kit", category: 'Outdoor', minimum: 2, base: 1.5, guestPower: 0.7, nightPower: 0.3, useShare: 0.5, spread: 0.4 },
  { name: 'Chlorine Tablets', category: 'Hot Tub', minimum: 4, base: 1.5, guestPower: 0.5, nightPower: 1, useShare: 0.9, spread: 0.3 },
  { name: 'Hot Tub Test Strips', category: 'Hot Tub', minimum: 6, base: 1, guestPower: 0, nightPower: 0.7, useShare: 0.9, spread: 0.3 },
  { name: 'Disposable Slippers', category: 'Guest Amenities', minimum: 4, base: 2, guestPower: 1, nightPower: 0.1, useShare: 0.65, spread: 0.3 },
  { name: 'Dental Kits', category: 'Guest Amenities', minimum: 4, base: 2, guestPower: 1, nightPower: 0, useShare: 0.45, spread: 0.3 },
  { name: 'Earplugs', category: 'Guest Amenities', minimum: 4, base: 2, guestPower: 1, nightPower: 0.2, useShare: 0.3, spread: 0.4 },
  { name: 'Dog Waste Bags', category: 'Pet', minimum: 10, base: 5, guestPower: 0, nightPower: 1, useShare: 0.2, spread: 0.5 },
  { name: 'Lint Roller Sheets', category: 'Pet', minimum: 10, base: 4, guestPower: 0, nightPower: 0.5, useShare: 0.2, spread: 0.5 },
];

/** The independent company's items, ids 'I01'… in catalogue order. */
export const INDEPENDENT_ITEMS: IndependentItem[] = ITEM_SPECS.map(({ defaultPerStay, ...spec }, i) => ({
  id: `I${String(i + 1).padStart(2, '0')}`,
  defaultPerStay: defaultPerStay ?? null,
  ...spec,
}));

/** Nights 1–10 and their weights: most stays are short, a few run a week or more. */
const NIGHT_WEIGHTS = [12, 20, 20, 14, 10, 7, 9, 3, 2, 3];
/** Guests above (or below) the listing's typical number and their weights: 44 % come more. */
const PARTY_OFFSETS: readonly [offset: number, weight: number][] = [
  [-1, 16],
  [0, 40],
  [1, 24],
  [2, 12],
  [3, 8],
];
/** Listings' typical guests, drawn uniformly from these. */
const TYPICAL_GUESTS = [2, 2, 3, 4, 4, 4, 5, 6, 6, 8];

/** The draws the generator needs, from one seeded stream. */
function draws(random: () => number) {
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return {
    random,
    /** An integer in [min, max]. */
    int: (min: number, max: number): number => min + Math.floor(random() * (max - min + 1)),
    /** An index of `weights`, with chances in proportion to them. */
    weighted(weights: readonly number[]): number {
      let r = random() * weights.reduce((a, b) => a + b, 0);
      for (let i = 0; i < weights.length; i++) {
        r -= weights[i]!;
        if (r < 0) return i;
      }
      return weights.length - 1;
    },
    /** A lognormal factor of mean 1 and log-σ `sigma` (1 when sigma is 0). */
    lognormal: (sigma: number): number => (sigma === 0 ? 1 : Math.exp(sigma * normal() - (sigma * sigma) / 2)),
    /** `amount` as whole pieces: its fraction rounded up by chance, so the mean stays `amount`. */
    whole(amount: number): number {
      const floor = Math.floor(amount);
      return floor + (random() < amount - floor ? 1 : 0);
    },
  };
}

/** The calendar day `day` days after {@link FIRST_DAY} ('YYYY-MM-DD'; negative: before). */
function dateOf(day: number): string {
  const [y, m, d] = FIRST_DAY.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + day)).toISOString().slice(0, 10);
}

/** The weekly count's day for a stay departing on `departureDay`: the first count weekday on or after it. */
const nextCount = (departureDay: number, weekday: number): number => departureDay + ((((weekday - departureDay) % 7) + 7) % 7);

/**
 * Generates the independent company from `seed` (module comment for the process). Stays may
 * start up to 4 days before the history; the bookings run {@link FUTURE_DAYS} days past it.
 * @returns the history (days, properties 'P01'…, items, recorded usage, stays with their true
 *   use) with each property's parameters and the replay's starting stock.
 */
export function independentCompany(seed = 20260105): IndependentCompany {
  const draw = draws(seededRandom(seed));
  const days = Array.from({ length: HISTORY_DAYS }, (_, d) => dateOf(d));
  const items = INDEPENDENT_ITEMS;

  // Recording modes by quota, in a seeded order, so every mode is present whatever the seed.
  const modes = (Object.entries(RECORDING_QUOTA) as [RecordingMode, number][]).flatMap(([mode, n]) => Array<RecordingMode>(n).fill(mode));
  for (let i = modes.length - 1; i > 0; i--) {
    const j = draw.int(0, i);
    [modes[i], modes[j]] = [modes[j]!, modes[i]!];
  }
  const properties: IndependentProperty[] = modes.map((recording, u) => ({
    id: `P${String(u + 1).padStart(2, '0')}`,
    typicalGuests: TYPICAL_GUESTS[draw.int(0, TYPICAL_GUESTS.length - 1)]!,
    guestsGiven: draw.random() >= LINK_SHARE,
    recording,
    countWeekday: recording === 'weekly' ? draw.int(0, 6) : null,
    multiplier: draw.lognormal(0.35),
  }));
  const itemMultipliers = properties.map(() => items.map(() => draw.lognormal(0.3)));

  const stays: IndependentStay[] = [];
  const usage = properties.map(() => items.map(() => new Array<number>(HISTORY_DAYS).fill(0)));
  properties.forEach((property, u) => {
    let arrival = -draw.int(0, 4);
    for (let n = 1; arrival < HISTORY_DAYS + FUTURE_DAYS; n++) {
      const nights = 1 + draw.weighted(NIGHT_WEIGHTS);
      const party = Math.max(1, property.typicalGuests + PARTY_OFFSETS[draw.weighted(PARTY_OFFSETS.map(([, w]) => w))]![0]);
      const heavy = draw.random() < HEAVY_SHARE ? HEAVY_FACTOR : 1;
      const departureDay = arrival + nights;
      const trueUse = items.map((item, i) => {
        if (draw.random() >= item.useShare) return 0;
        const mean = item.base * property.multiplier * itemMultipliers[u]![i]! * (party / 2) ** item.guestPower * (nights / 3) ** item.nightPower;
        return draw.whole(mean * heavy * draw.lognormal(item.spread));
      });
      const recordedDay =
        property.recording === 'checkout'
          ? departureDay
          : property.recording === 'late'
            ? departureDay + draw.int(1, 3)
            : nextCount(departureDay, property.countWeekday!);
      if (departureDay >= 0) {
        stays.push({
          id: `${property.id}-S${String(n).padStart(3, '0')}`,
          unitId: property.id,
          arrival: dateOf(arrival),
          departure: dateOf(departureDay),
          // A calendar link gives no guests: the forecast counts the listing's typical guests.
          guests: stayGuests(property.guestsGiven ? party : null, property.typicalGuests),
          arrivalDay: arrival,
          departureDay,
          trueUse,
          party,
          recordedDay,
        });
        if (recordedDay < HISTORY_DAYS) {
          trueUse.forEach((pieces, i) => {
            usage[u]![i]![recordedDay]! += pieces;
          });
        }
      }
      const gap = draw.random();
      arrival = departureDay + (gap < 0.35 ? 0 : gap < 0.75 ? draw.int(1, 2) : draw.int(3, 7));
    }
  });

  return {
    name: 'Timberline Cabins',
    timeZone: 'America/Denver',
    history: { days, unitIds: properties.map((p) => p.id), items, usage, stays },
    properties,
    startStock: properties.map(() => items.map((item) => 2 * item.minimum)),
  };
}
