/**
 * The properties whose next arrival would start short at the company's service level
 * (docs/product.md "Webhooks" `forecast.short`, docs/forecast.md "Spread and service level"): the
 * morning's question of a system outside, which should hear of a property only when the stock
 * falls short of what the operator chose to be sure of, not of every expected-use shortfall.
 *
 * A property is short when the chance that its next arrival (and the stays under way before it)
 * finds every item it needs, with nothing brought, is below the level: then the pick list's rule
 * (service-level.ts `bringsAtLevel`) would bring some piece. The items named are those it would
 * bring, with how many. Computed on demand from the projection at a level (project.ts), never
 * stored: one company once a morning, where storing every property's lines at the level would
 * make each Forecast refresh pay for them (projections.ts `ProjectionScope.atLevel`).
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import type { ModelStay } from './model';
import { byName, byText, modelStay, project } from './project';
import { stockedItems } from './projections';
import { bringsAtLevel, stayChance } from './service-level';

/** A property short at the level: its next arrival, that arrival's chance with nothing brought (0–1), and the items to bring (pieces). */
export interface ShortAtLevel {
  unit: { id: string; name: string };
  /** The property's next arrival, a calendar day of the property (YYYY-MM-DD). */
  arrivalDate: string;
  chance: number;
  /** In item-name order. */
  items: { id: string; name: string; quantity: number; bring: number }[];
}

/**
 * The stays a property's next arrival depends on: those under way on `today` and every stay
 * arriving on the first arrival day from `today` on (model.ts orders a day's arrivals by id, so
 * all of that day's come before the last). Empty without an arrival.
 */
function upToNextArrival(stays: readonly ModelStay[], today: string): { next: string; stays: ModelStay[] } | null {
  const next = stays.filter((s) => s.arrival >= today).reduce<string | null>((first, s) => (first === null || s.arrival < first ? s.arrival : first), null);
  return next === null ? null : { next, stays: stays.filter((s) => s.arrival <= next) };
}

/**
 * Every property of the company whose next arrival within `days` days of its today would start
 * short at the service level `level` (percent, 50–99), inside the caller's tenant transaction,
 * with the rates in force as stored (the caller learns them first when stale: rates.ts
 * `freshRates`). Ordered by the earliest next arrival, then the lowest chance, then by name.
 */
export async function propertiesShortAtLevel(tx: Tx, tenantId: string, now: Date, days: number, level: number): Promise<ShortAtLevel[]> {
  const { units, pairsOf, staysOf } = await project(tx, tenantId, now, { units: sql`true`, end: { days }, every: false, atLevel: true });
  const short: ShortAtLevel[] = [];
  for (const unit of units) {
    const projected = pairsOf.get(unit.unit_id);
    const window = upToNextArrival((staysOf.get(unit.unit_id) ?? []).map(modelStay), unit.today);
    if (!projected || !window) continue;
    const items = stockedItems(projected);
    const brings = bringsAtLevel(items, window.stays, unit.today, level / 100);
    if (!brings.some((b) => b > 0)) continue;
    short.push({
      unit: { id: unit.unit_id, name: unit.unit_name },
      arrivalDate: window.next,
      chance: stayChance(items, window.stays, unit.today, items.map(() => 0)),
      items: projected.flatMap(({ pair }, k) =>
        brings[k]! > 0 ? [{ id: pair.item_id, name: pair.item_name, quantity: Number(pair.quantity), bring: brings[k]! }] : [],
      ),
    });
  }
  return short.sort((a, b) => byText(a.arrivalDate, b.arrivalDate) || a.chance - b.chance || byName(a.unit.name, b.unit.name) || byText(a.unit.id, b.unit.id));
}
