/**
 * The restock forecast (docs/product.md "Forecast", "Pick lists"): which upcoming check-in would
 * find a property short of an item, what to bring, what a storage garage hands out on a day, how
 * a pick list is delivered, and what a garage should order. Projections come from project.ts; the
 * Forecast screen and the pick lists read them from the read model of projections.ts; the rates
 * come from the cache of rates.ts, learned again first when stale. A pick list's day is the
 * company's (stays/local-days.ts, docs/decisions/036-local-days.md).
 */
import { sql } from 'drizzle-orm';
import {
  DEFAULT_FORECAST_HORIZON,
  PICK_LIST_DAYS_AHEAD,
  PICK_LIST_HORIZON_DAYS,
  FORECAST_PROPERTIES_SHOWN,
  type ForecastAnswer,
  type ItemForecast,
  type ItemQuantity,
  type OrderForecastAnswer,
  type PickListAnswer,
  type PickListUnit,
  type ShortUnitForecast,
  type UnitForecastAnswer,
} from '../../../common/contracts/forecast';
import { SUMMARY_HORIZON_DAYS, type ForecastSummary } from '../../../common/contracts/forecast-summary';
import { orderQuantity } from '../../../common/contracts/stock';
import { FORECAST_SHORT_PROPERTIES_LISTED, type ForecastShortEventData } from '../../../common/contracts/webhook-events';
import { pgArray, queryRows, type Db, type Tx } from '../../db/client';
import { withTenant } from '../../db/tenant-tx';
import { AppError, notFound } from '../../lib/errors';
import { arrayOfRaw, asJsonText, objectWithRaw, type JsonText } from '../../lib/json-text';
import type { TenantIdentity } from '../auth/identity';
import { addLocalDays, companyZone, localDay } from '../stays/local-days';
import { isStay } from '../stays/stay-rules';
import { nightsOf } from './model';
import { stayGuestsSql } from './model-sql';
import { byName, byText, itemForecast, itemsInNameOrder, pastStaysOf, project } from './project';
import { refreshProjections, storedJson, withProjections, type UnitProjection } from './projections';
import { freshRates } from './rates';
import { companyServiceLevel } from './service-level-setting';
import { propertiesShortAtLevel } from './short-at-level';
import { listenedTypes } from '../webhooks/listened';
import { recordWebhookEvent } from '../webhooks/record-event';

/** The company's properties short within a horizon, ranked, with what the answers say of the whole company. */
interface Ranking {
  today: string;
  learnedAt: Date;
  /** Properties short, most urgent first (docs/product.md "Forecast"). */
  short: UnitProjection[];
  withStays: number;
  units: Map<string, { id: string; name: string; garage_id: string | null; garage_name: string | null }>;
}

/**
 * The properties of `found` (the company's projections over a horizon) that would start a
 * check-in short, most urgent first: the earliest first short arrival, one that runs out before
 * one only below its minimum, its first short item's name, more items short, then by name
 * (docs/product.md "Forecast"); inside the caller's tenant transaction.
 */
async function rankShort(tx: Tx, tenantId: string, now: Date, found: { learnedAt: Date; projections: UnitProjection[] }): Promise<Ranking> {
  const today = localDay(now, await companyZone(tx, tenantId));
  const ranks = new Map((await itemsInNameOrder(tx, tenantId)).map((item) => [item.id, item.name_rank]));
  const units = new Map(
    (
      await queryRows<{ id: string; name: string; garage_id: string | null; garage_name: string | null }>(
        tx,
        sql`select u.id, u.name, u.garage_id, g.name as garage_name from units u
            left join garages g on g.tenant_id = u.tenant_id and g.id = u.garage_id where u.tenant_id = ${tenantId}`,
      )
    ).map((u) => [u.id, u]),
  );
  const short = found.projections.filter((p) => p.items_short > 0 && units.has(p.unit_id));
  const firstItem = (p: UnitProjection) => ranks.get(p.first_item_id ?? '') ?? -1;
  short.sort(
    (a, b) =>
      byText(a.first_shortfall_date!, b.first_shortfall_date!) ||
      (a.first_runs_out === b.first_runs_out ? 0 : a.first_runs_out ? -1 : 1) ||
      firstItem(a) - firstItem(b) ||
      b.items_short - a.items_short ||
      byName(units.get(a.unit_id)!.name, units.get(b.unit_id)!.name) ||
      byText(a.unit_id, b.unit_id),
  );
  return { today, learnedAt: found.learnedAt, short, withStays: found.projections.filter((p) => p.stays > 0).length, units };
}

/**
 * The first `count` properties of `ranking` with their short items as stored (JSON text of
 * ShortUnitForecast `items`), in the ranking's order, inside the caller's tenant transaction. The
 * stays and first shortfall come with the items, from one stored row; a property deleted since
 * the ranking was read, or stored again since and no longer short, is left out.
 */
async function shownProperties(tx: Tx, tenantId: string, ranking: Ranking, count: number) {
  const shown = ranking.short.slice(0, count);
  const stored = await storedJson(tx, tenantId, 'short_json', shown);
  return shown.flatMap((p) => {
    const part = stored.get(p.unit_id);
    return part?.first_shortfall_date
      ? [{ unit: ranking.units.get(p.unit_id)!, stays: part.stays, first_shortfall_date: part.first_shortfall_date, items: part.json }]
      : [];
  });
}

/** The projections of every property of the company over `horizon` days. */
const horizonScope = (horizon: number) => ({ key: `days:${horizon}`, units: sql`true`, end: { days: horizon } });

/**
 * Computes the projections the Forecast screen's default horizon and the Dashboard card read
 * for every property, learning the rates first when stale: the
 * rates job calls it after learning, so that no request pays for the whole company.
 */
export async function computeCompanyForecast(db: Db, tenantId: string, now: Date): Promise<void> {
  for (const horizon of new Set([DEFAULT_FORECAST_HORIZON, SUMMARY_HORIZON_DAYS])) await refreshProjections(db, tenantId, now, horizonScope(horizon));
}

/**
 * GET /api/forecast: the properties that would start a check-in short of some item within
 * `horizon` days (3, 7 or 14), with those items only, most urgent first (see {@link rankShort}),
 * each with the past stays its usage is learned from (project.ts `pastStaysOf`).
 * At most FORECAST_PROPERTIES_SHOWN are listed; `properties_short` counts them all. Answered as
 * JSON text assembled from the stored projections (lib/json-text.ts). The rates are learned
 * first when stale (rates.ts). Source: docs/product.md "Forecast".
 */
export async function companyForecast(db: Db, who: TenantIdentity, horizon: number, now: Date): Promise<JsonText<ForecastAnswer>> {
  const tenantId = who.tenantId;
  return withProjections(db, tenantId, now, horizonScope(horizon), async (tx, found) => {
    const ranking = await rankShort(tx, tenantId, now, found);
    const shown = await shownProperties(tx, tenantId, ranking, FORECAST_PROPERTIES_SHOWN);
    // Read with the answer, not stored with the projections: one small query over the properties
    // shown, current with the rates and stock rows it reads, and no column for unit_projections.
    const pastStays = await pastStaysOf(tx, tenantId, shown.map((p) => p.unit.id));
    const properties = shown.map((p) =>
      objectWithRaw(
        {
          unit_id: p.unit.id,
          unit_name: p.unit.name,
          garage_id: p.unit.garage_id,
          garage_name: p.unit.garage_name,
          first_shortfall_date: p.first_shortfall_date,
          stays: p.stays,
          past_stays: pastStays.get(p.unit.id) ?? null,
        } satisfies Omit<ShortUnitForecast, 'items'>,
        { items: p.items },
      ),
    );
    return asJsonText(
      objectWithRaw(
        {
          horizon_days: horizon,
          today: ranking.today,
          properties_short: ranking.short.length,
          properties_running_out: ranking.short.filter((p) => p.items_running_out > 0).length,
          properties_with_stays: ranking.withStays,
          rates_learned_at: ranking.learnedAt.toISOString(),
          service_level: await companyServiceLevel(tx, tenantId),
        } satisfies Omit<ForecastAnswer, 'properties'>,
        { properties: arrayOfRaw(properties) },
      ),
    );
  });
}

/**
 * The Dashboard card "Runs out before a check-in" (docs/product.md "Forecast"): the properties
 * short within {@link SUMMARY_HORIZON_DAYS} days, the first three with up to three item names each.
 */
export async function forecastSummary(db: Db, who: TenantIdentity, now: Date): Promise<ForecastSummary> {
  const tenantId = who.tenantId;
  return withProjections(db, tenantId, now, horizonScope(SUMMARY_HORIZON_DAYS), async (tx, found) => {
    const ranking = await rankShort(tx, tenantId, now, found);
    const shown = ranking.short.length === 0 ? [] : await shownProperties(tx, tenantId, ranking, 3);
    return {
      horizon_days: SUMMARY_HORIZON_DAYS,
      properties_short: ranking.short.length,
      first: shown.map((p) => {
        const items = JSON.parse(p.items) as ItemForecast[];
        return {
          unit_id: p.unit.id,
          unit_name: p.unit.name,
          arrival_date: p.first_shortfall_date,
          kind: items[0]!.shortfall!.kind,
          item_names: items.slice(0, 3).map((i) => i.item_name),
          items_short: items.length,
        };
      }),
    };
  });
}

/** Whether the company's `forecast.short` of `day` was recorded already (a morning job run again after a failure). */
async function forecastShortRecorded(tx: Tx, tenantId: string, day: string): Promise<boolean> {
  const [row] = await queryRows<{ found: boolean }>(
    tx,
    sql`select exists (select 1 from webhook_events where tenant_id = ${tenantId} and type = 'forecast.short' and data->>'date' = ${day}) as found`,
  );
  return row?.found === true;
}

/**
 * The webhook event `forecast.short` of the company's morning (docs/product.md "Webhooks";
 * common/contracts/webhook-events.ts `forecastShortEventData`): the properties whose next arrival
 * within {@link SUMMARY_HORIZON_DAYS} days would start short at the company's service level
 * (short-at-level.ts), the first FORECAST_SHORT_PROPERTIES_LISTED with the items to bring,
 * recorded in the transaction that read them; the rates are learned first when stale. Nothing is
 * computed when no endpoint of the company listens, nor recorded when no property is short or the
 * day's event was recorded already.
 * @returns whether an event was recorded.
 */
export async function recordForecastShort(db: Db, tenantId: string, now: Date): Promise<boolean> {
  if ((await withTenant(db, tenantId, (tx) => listenedTypes(tx, tenantId, ['forecast.short']))).size === 0) return false;
  await freshRates(db, tenantId, now);
  return withTenant(db, tenantId, async (tx) => {
    const today = localDay(now, await companyZone(tx, tenantId));
    if (await forecastShortRecorded(tx, tenantId, today)) return false;
    const level = await companyServiceLevel(tx, tenantId);
    const short = await propertiesShortAtLevel(tx, tenantId, now, SUMMARY_HORIZON_DAYS, level);
    if (short.length === 0) return false;
    const data: ForecastShortEventData = {
      date: today,
      horizon_days: SUMMARY_HORIZON_DAYS,
      service_level: level,
      properties_short: short.length,
      properties: short.slice(0, FORECAST_SHORT_PROPERTIES_LISTED).map((p) => ({
        id: p.unit.id,
        name: p.unit.name,
        arrival_date: p.arrivalDate,
        chance: Math.round(p.chance * 1000) / 1000,
        items_short: p.items.length,
        items: p.items,
      })),
    };
    await recordWebhookEvent(tx, tenantId, 'forecast.short', data);
    return true;
  });
}

/**
 * One property over `horizon` days (docs/product.md "Forecast"): its stays of the horizon (under
 * way or arriving) and every item it holds a stock row of, with the rate in force.
 * @throws 404 'Unit not found' for a unit of no property of the company.
 */
export async function unitForecast(db: Db, who: TenantIdentity, unitId: string, horizon: number, now: Date): Promise<UnitForecastAnswer> {
  const tenantId = who.tenantId;
  await freshRates(db, tenantId, now);
  return withTenant(db, tenantId, async (tx) => {
    const { units, staysOf, pairsOf } = await project(tx, tenantId, now, { units: sql`u.id = ${unitId}`, end: { days: horizon }, every: true });
    const unit = units[0];
    if (!unit) throw notFound('Unit');
    const pastStays = await pastStaysOf(tx, tenantId, [unit.unit_id]);
    return {
      unit_id: unit.unit_id,
      horizon_days: horizon,
      today: unit.today,
      stays: (staysOf.get(unit.unit_id) ?? []).map((s) => ({
        id: s.id,
        source: s.source,
        arrival_date: s.arrival_date,
        departure_date: s.departure_date,
        guests: Number(s.guests),
        nights: nightsOf({ arrival: s.arrival_date, departure: s.departure_date }),
        under_way: s.arrival_date < unit.today,
      })),
      items: (pairsOf.get(unit.unit_id) ?? []).map((p) => ({
        ...itemForecast(p),
        rate: {
          item_id: p.pair.item_id,
          per_stay: p.rate.perStay,
          per_guest_night: p.rate.perGuestNight,
          fixed_share: p.rate.fixedShare,
          stays: Number(p.pair.rate_stays),
          dispersion: Number(p.pair.dispersion),
          basis: p.rate.basis,
        },
      })),
      past_stays: pastStays.get(unit.unit_id) ?? null,
    };
  });
}

/**
 * The pick list of a storage garage for day `date` (docs/product.md "Pick lists"; default:
 * tomorrow in the company's time zone, which must be today or later and at most
 * PICK_LIST_DAYS_AHEAD days ahead): the properties assigned to the garage with a stay arriving
 * that day, by name; for each, the items to bring so that no arrival before `date` +
 * PICK_LIST_HORIZON_DAYS starts short (projected from now), with the property's stock; the
 * garage's stock; and per property what of its lines the garage cannot cover once the properties
 * listed before have taken theirs. Answered as JSON text assembled from the stored projections
 * (lib/json-text.ts). Takes a tenant id, not a request: the daily email calls it from a job.
 * @throws 404 'Garage not found'; VALIDATION 'Date must be today or later' | 'Date must be at most 60 days ahead'
 */
export async function garagePickList(db: Db, tenantId: string, garageId: string, date: string | undefined, now: Date): Promise<JsonText<PickListAnswer>> {
  const { garage, day } = await withTenant(db, tenantId, async (tx) => {
    const [found] = await queryRows<{ name: string }>(tx, sql`select name from garages where tenant_id = ${tenantId} and id = ${garageId}`);
    if (!found) throw notFound('Garage');
    const today = localDay(now, await companyZone(tx, tenantId));
    const asked = date ?? addLocalDays(today, 1);
    if (asked < today) throw new AppError('VALIDATION', 'Date must be today or later');
    if (asked > addLocalDays(today, PICK_LIST_DAYS_AHEAD)) throw new AppError('VALIDATION', `Date must be at most ${PICK_LIST_DAYS_AHEAD} days ahead`);
    return { garage: found, day: asked };
  });
  const arriving = sql`u.garage_id = ${garageId} and exists (
    select 1 from reservations where reservations.tenant_id = u.tenant_id and reservations.unit_id = u.id and ${isStay()} and reservations.arrival_date = ${day}::date)`;
  const scope = { key: `pick-list:${garageId}:${day}`, units: arriving, end: { date: addLocalDays(day, PICK_LIST_HORIZON_DAYS) }, atLevel: true };
  return withProjections(db, tenantId, now, scope, async (tx, { projections }) => {
    const units = await queryRows<{ id: string; name: string; address: string }>(
      tx,
      sql`select id, name, address from units where tenant_id = ${tenantId} and id = any(${pgArray(projections.map((p) => p.unit_id))}::uuid[])
          order by name, id`,
    );
    const endOf = new Map(projections.map((p) => [p.unit_id, p.end_day]));
    const listed = units.map((u) => ({ unit_id: u.id, end_day: endOf.get(u.id)! }));
    const lines = await storedJson(tx, tenantId, 'pick_json', listed);
    const arrivals = await queryRows<{ unit_id: string; id: string; arrival_date: string; departure_date: string; guests: number }>(
      tx,
      sql`select reservations.unit_id, reservations.id, reservations.arrival_date::text as arrival_date, reservations.departure_date::text as departure_date,
            ${stayGuestsSql(sql`reservations.guests`, sql`u.typical_guests`)} as guests
          from reservations join units u on u.tenant_id = reservations.tenant_id and u.id = reservations.unit_id
          where reservations.tenant_id = ${tenantId} and ${isStay()} and reservations.unit_id = any(${pgArray(listed.map((l) => l.unit_id))}::uuid[])
            and reservations.arrival_date = ${day}::date
          order by reservations.arrival_date, reservations.id`,
    );
    const stock = await queryRows<ItemQuantity>(
      tx,
      sql`select item_id, quantity from garage_inventory where tenant_id = ${tenantId} and garage_id = ${garageId} order by item_id`,
    );
    const named = new Set(units.flatMap((u) => (lines.get(u.id)?.brings ?? []).map(([itemId]) => itemId)));
    const items = (await itemsInNameOrder(tx, tenantId))
      .filter((item) => named.has(item.id))
      .map((item) => ({ item_id: item.id, item_name: item.name, category: item.category }));
    const properties = units.map((unit) =>
      objectWithRaw(
        {
          unit_id: unit.id,
          unit_name: unit.name,
          address: unit.address,
          arrivals: arrivals
            .filter((s) => s.unit_id === unit.id)
            .map((s) => ({ stay_id: s.id, arrival_date: s.arrival_date, guests: Number(s.guests), nights: nightsOf({ arrival: s.arrival_date, departure: s.departure_date }) })),
        } satisfies Omit<PickListUnit, 'lines' | 'service'>,
        { lines: lines.get(unit.id)?.json ?? '[]', service: lines.get(unit.id)?.service_json ?? 'null' },
      ),
    );
    return asJsonText(
      objectWithRaw(
        {
          garage_id: garageId,
          garage_name: garage.name,
          date: day,
          horizon_days: PICK_LIST_HORIZON_DAYS,
          garage_stock: stock.map((s) => ({ item_id: s.item_id, quantity: Number(s.quantity) })),
          items,
        } satisfies Omit<PickListAnswer, 'properties'>,
        { properties: arrayOfRaw(properties) },
      ),
    );
  });
}

/** A stay arriving on a day, for the daily email. */
export interface Arrival {
  unit_id: string;
  unit_name: string;
  stay_id: string;
  arrival_date: string;
  guests: number;
  nights: number;
}

/**
 * The company's stays arriving on `date` ('YYYY-MM-DD', the properties' local dates), by property
 * name; guests as the forecast counts them (docs/product.md "Forecast").
 */
export async function companyArrivals(db: Db, tenantId: string, date: string): Promise<Arrival[]> {
  const rows = await withTenant(db, tenantId, (tx) =>
    queryRows<Omit<Arrival, 'nights'> & { departure_date: string }>(
      tx,
      sql`select u.id as unit_id, u.name as unit_name, reservations.id as stay_id, reservations.arrival_date::text as arrival_date,
            reservations.departure_date::text as departure_date, ${stayGuestsSql(sql`reservations.guests`, sql`u.typical_guests`)} as guests
          from reservations join units u on u.tenant_id = reservations.tenant_id and u.id = reservations.unit_id
          where reservations.tenant_id = ${tenantId} and ${isStay()} and reservations.arrival_date = ${date}::date
          order by u.name, u.id, reservations.id`,
    ),
  );
  return rows.map(({ departure_date, ...r }) => ({ ...r, guests: Number(r.guests), nights: nightsOf({ arrival: r.arrival_date, departure: departure_date }) }));
}

/**
 * Reorder from the forecast (docs/product.md "Pick lists"): per item the garage holds or its
 * properties need, the garage's stock, the item's minimum threshold, what its properties need
 * brought over the garage's lead time (the sum of their `bring` over the stays arriving before
 * their today + `lead_time_days`), and the order: what covers that and keeps the garage its
 * minimum, max(0, needed + minimum − garage stock) (common/contracts/stock.ts `orderQuantity`).
 * @throws 404 'Garage not found'.
 */
export async function garageOrderForecast(db: Db, who: TenantIdentity, garageId: string, now: Date): Promise<OrderForecastAnswer> {
  const tenantId = who.tenantId;
  await freshRates(db, tenantId, now);
  return withTenant(db, tenantId, async (tx) => {
    const [garage] = await queryRows<{ name: string; lead_time_days: number }>(
      tx,
      sql`select name, lead_time_days from garages where tenant_id = ${tenantId} and id = ${garageId}`,
    );
    if (!garage) throw notFound('Garage');
    const lead = Number(garage.lead_time_days);
    const { pairsOf } = await project(tx, tenantId, now, { units: sql`u.garage_id = ${garageId}`, end: { days: lead }, every: false });
    const needed = new Map<string, number>();
    for (const p of [...pairsOf.values()].flat()) needed.set(p.pair.item_id, (needed.get(p.pair.item_id) ?? 0) + p.projection.bring);
    const rows = await queryRows<{ item_id: string; item_name: string; category: string; minimum_threshold: number; garage_quantity: number }>(
      tx,
      sql`select i.id as item_id, i.name as item_name, i.category, i.minimum_threshold, coalesce(g.quantity, 0) as garage_quantity
          from items i left join garage_inventory g on g.tenant_id = i.tenant_id and g.item_id = i.id and g.garage_id = ${garageId}
          where i.tenant_id = ${tenantId} and (g.item_id is not null or i.id = any(${pgArray([...needed.keys()])}::uuid[]))`,
    );
    const items = rows.map((r) => {
      const need = needed.get(r.item_id) ?? 0;
      const order = orderQuantity({ needed: need, minimum: Number(r.minimum_threshold), onHand: Number(r.garage_quantity) });
      return { ...r, minimum_threshold: Number(r.minimum_threshold), garage_quantity: Number(r.garage_quantity), needed: need, order };
    });
    items.sort((a, b) => b.order - a.order || byName(a.item_name, b.item_name) || byText(a.item_id, b.item_id));
    return { garage_id: garageId, garage_name: garage.name, lead_time_days: lead, today: localDay(now, await companyZone(tx, tenantId)), items };
  });
}
