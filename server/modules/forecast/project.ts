/**
 * Projects a company's stock rows over their properties' stays (docs/product.md "Forecast"): the
 * one computation behind the forecast, the pick lists, a property's forecast and the orders of a
 * garage. The arithmetic is model.ts's; this reads what it needs.
 *
 * Days: a property's "today" is the day `now` falls on in its time zone (`units.time_zone`, else
 * the company's `tenants.time_zone`); stays are stored in the property's local dates
 * (stays/local-days.ts, docs/decisions/036-local-days.md).
 *
 * Performance: a company may have 1,000 properties of 100 items. The database aggregates each
 * property's stays of the window and keeps only the (property, item) pairs whose stock minus ALL
 * the window's expected use (model-sql.ts `expectedUseSql`) is below the item's minimum
 * (stock/rules.ts `belowMinimumSql`, the minimum raised by a millionth so that a rounding tail of
 * the sum never drops a pair the projection would find short): any
 * other pair starts no arrival short and needs nothing brought (each arrival's stock before it is
 * at least that), so the pre-filter is exact. Only those pairs are projected in JavaScript. The
 * stored projections, whose pick lists bring at the company's service level, widen it by a margin
 * of the item's spread (`levelMarginSql`).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { ForecastStay, ItemForecast } from '../../../common/contracts/forecast';
import { pgArray, queryRows, type Tx } from '../../db/client';
import { addLocalDays, isTimeZone, localDay, localMidnight } from '../stays/local-days';
import { isStay } from '../stays/stay-rules';
import { belowMinimumSql, isUsageSql } from '../stock/rules';
import { projectItem, type ItemProjection, type ModelStay, type Rate } from './model';
import { expectedUseSql, stayGuestsSql, stayNightsSql } from './model-sql';

/** A property in scope, with its today and the stays of its window. */
export interface UnitRow {
  unit_id: string;
  unit_name: string;
  address: string;
  garage_id: string | null;
  garage_name: string | null;
  today: string;
  /** The first day after the window ('YYYY-MM-DD'). */
  end_day: string;
  stays: number;
}

/** A stock row of a property with its item and the rate in force. */
export interface PairRow {
  unit_id: string;
  item_id: string;
  item_name: string;
  category: string;
  quantity: number;
  minimum_threshold: number;
  per_stay: number;
  per_guest_night: number;
  fixed_share: number;
  basis: Rate['basis'];
  rate_stays: number;
  /** The item's dispersion (service-level.ts), 1 for a default rate or none. */
  dispersion: number;
  /** The item's own service level, percent; null: the company's. */
  item_level: number | null;
}

/** A stay of the window, guests as the forecast counts them. */
export interface StayRow {
  unit_id: string;
  source: ForecastStay['source'];
  id: string;
  arrival_date: string;
  departure_date: string;
  guests: number;
}

/** A projected stock row. */
export interface Projected {
  pair: PairRow;
  rate: Rate;
  projection: ItemProjection;
}

/** What {@link project} finds for the properties in scope. */
export interface Projection {
  units: UnitRow[];
  staysOf: Map<string, StayRow[]>;
  pairsOf: Map<string, Projected[]>;
}

/**
 * Which properties and stays a projection covers. `units` is a predicate on the units row `u`;
 * stays count when they have not departed (departing after the property's today, or today until
 * usage is recorded there: {@link scopeCte}) and arrive before `end`: a number of days after that
 * today, or one calendar date. `every`: project every stock row and load the stays of every
 * property (one property's page); else only the pre-filtered pairs (module comment).
 */
export interface Scope {
  units: SQL;
  end: { days: number } | { date: string };
  every: boolean;
  /**
   * With `every` false: also keep the pairs a pick list at a service level may bring to
   * ({@link levelMarginSql}), not only those short at the expected use.
   */
  atLevel?: boolean;
}

/**
 * SQL: the pieces above the expected use `mean` of an item of dispersion `dispersion`
 * (service-level.ts) beyond which its use is taken as never reaching: 4 standard deviations
 * (√(φμ)) with the negative binomial's skew ((2φ − 1)(z² − 1)/6, the Cornish–Fisher term of its
 * third cumulant φμ(2φ − 1)), and a piece for the rounding. By the normal approximation that is
 * a chance below 1 in 30,000 per item, so a property of 100 items such pairs left out overstates
 * its chance by under 0.4 % of the shortfall it allows (docs/forecast.md "Spread and service level").
 */
function levelMarginSql(mean: SQL, dispersion: SQL): SQL {
  return sql`(4 * sqrt(greatest(${dispersion} * ${mean}, 0)) + 2.5 * greatest(2 * ${dispersion} - 1, 0) + 1)`;
}

/** SQL: the `reservations` row is a stay the projection of property `us` counts ({@link scopeCte}). */
const countedStay = sql`${isStay()} and reservations.departure_date >= us.departs_from and reservations.arrival_date < us.end_day`;

/**
 * SQL `with` clause naming `us`, the properties in scope with their today and window end, `ud`,
 * the same with the first departure day counted (read as `us` by {@link countedStay}'s callers),
 * and `st`, their stays' totals.
 *
 * `ud.departs_from` is the earliest departure of a stay the projection counts (docs/product.md
 * "Forecast"). Cleaners record a stay's usage at checkout, so the stock does not show what a stay
 * departing today has used until usage is recorded there: until then it counts as under way
 * (`departs_from` is today); once any usage (the ledger's one definition, stock/rules.ts
 * `isUsageSql`) is recorded at the property on its today, from its local midnight to the next,
 * it is taken as recorded (`departs_from` is tomorrow). The ledger's rows are read, not the daily
 * totals (`unit_usage_daily`), whose days are UTC days rather than the property's. `ut` probes,
 * for each property, the index of usage rows by property and time
 * (`inventory_logs_unit_usage_idx`, migration 0039) for one row of its today: reading the day's
 * usage rows of the company and grouping them by property made the pick list read every usage row
 * of the day (100,000 in `npm run bench`, p95 238 ms). A correlated EXISTS against `reservations`
 * crashes the Citus 13.2 coordinator in this query; a lateral join to the ledger runs there. `ut`
 * has one row a property, and is materialised: inlined into the stays' totals, the probes ran
 * once per stay and stock row, and the demo's Forecast took over a minute on the embedded
 * database. A query that reads only `us` (the stored projections' check of every read) does not
 * read today's usage at all.
 */
export async function scopeCte(tx: Tx, tenantId: string, now: Date, scope: Pick<Scope, 'units' | 'end'>): Promise<SQL> {
  const zones = await queryRows<{ zone: string }>(
    tx,
    sql`select distinct coalesce(u.time_zone, t.time_zone) as zone from units u join tenants t on t.id = u.tenant_id
        where u.tenant_id = ${tenantId} and ${scope.units}`,
  );
  const days = zones.map(({ zone }) => {
    // A zone this server does not know counts as UTC (a property's time zone is validated when set).
    const known = isTimeZone(zone) ? zone : 'UTC';
    const today = localDay(now, known);
    return { zone, today, since: localMidnight(today, known).toISOString(), until: localMidnight(addLocalDays(today, 1), known).toISOString() };
  });
  const end = 'days' in scope.end ? sql`us0.today + ${scope.end.days}::int` : sql`${scope.end.date}::date`;
  return sql`
    with zt as (select * from json_to_recordset(${JSON.stringify(days)}::json) as z(zone text, today date, since timestamptz, until timestamptz)),
    us0 as (
      select u.id, u.name, u.address, u.garage_id, u.typical_guests, zt.zone, zt.today, zt.since, zt.until
      from units u join tenants t on t.id = u.tenant_id join zt on zt.zone = coalesce(u.time_zone, t.time_zone)
      where u.tenant_id = ${tenantId} and ${scope.units}),
    ut as materialized (
      select us0.id as unit_id from us0
      cross join lateral (
        select 1 from inventory_logs l
        where l.tenant_id = ${tenantId} and l.unit_id = us0.id and ${isUsageSql} and l.created_at >= us0.since and l.created_at < us0.until
        limit 1) recorded),
    us as (select us0.*, ${end} as end_day from us0),
    ud as (
      select us.*, case when ut.unit_id is null then us.today else us.today + 1 end as departs_from
      from us left join ut on ut.unit_id = us.id),
    st as (
      select reservations.unit_id, count(*)::int as stays,
        sum(${stayGuestsSql(sql`reservations.guests`, sql`us.typical_guests`)} * ${stayNightsSql(sql`reservations.arrival_date`, sql`reservations.departure_date`)})::bigint as guest_nights
      from reservations join ud us on us.id = reservations.unit_id
      where reservations.tenant_id = ${tenantId} and ${countedStay}
      group by reservations.unit_id)`;
}

/**
 * The rate in force of a stock row `s` of item `i`: the property's, else the company's, else the
 * item's default (docs/product.md "Forecast"). A rate learned as the item's default (the company
 * had no usage of it: model.ts `learnRates`) is the item's default as it is now, so that editing
 * the default changes the forecast at once rather than at the next learning. The minimum is the
 * stock row's copy of the item's threshold (kept equal by its foreign key); rates travel as double
 * precision, parsed as numbers.
 */
const fromDefault = sql`coalesce(ur.basis, iur.basis, 'none') in ('default', 'none')`;
const pairColumns = sql`
  s.unit_id, s.item_id, s.quantity, s.item_threshold as minimum_threshold,
  (case when ${fromDefault} then coalesce(i.usage_per_stay_default, 0) else coalesce(ur.per_stay, iur.per_stay) end)::float8 as per_stay,
  (case when ${fromDefault} then 0 else coalesce(ur.per_guest_night, iur.per_guest_night, 0) end)::float8 as per_guest_night,
  (case when ${fromDefault} then 1 else coalesce(ur.fixed_share, iur.fixed_share, 1) end)::float8 as fixed_share,
  case when ${fromDefault} then (case when i.usage_per_stay_default is null then 'none' else 'default' end) else coalesce(ur.basis, iur.basis) end as basis,
  coalesce(ur.stays, 0) as rate_stays,
  (case when ${fromDefault} then 1 else coalesce(iur.dispersion, 1) end)::float8 as dispersion,
  i.service_level as item_level`;

/**
 * Joins a stock row `s` to its item `i` and to the rates {@link pairColumns} reads, the property's
 * `ur` and the company's `iur`.
 */
const rateJoins = sql`
  join items i on i.tenant_id = s.tenant_id and i.id = s.item_id
  left join usage_rates ur on ur.tenant_id = s.tenant_id and ur.unit_id = s.unit_id and ur.item_id = s.item_id
  left join item_usage_rates iur on iur.tenant_id = s.tenant_id and iur.item_id = s.item_id`;

/** Orders names as people read them; one collator, since String#localeCompare builds one per call. */
export const byName = new Intl.Collator('en').compare;

/** Orders ids and 'YYYY-MM-DD' days by their characters. */
export const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The company's items in name order ({@link byName}, then id), inside the caller's tenant
 * transaction; `name_rank` is the place of the item's name among the distinct names, so that
 * callers sorting many rows by item name compare numbers (a collator is a hundred times slower).
 */
export async function itemsInNameOrder(tx: Tx, tenantId: string): Promise<{ id: string; name: string; category: string; name_rank: number }[]> {
  const items = await queryRows<{ id: string; name: string; category: string }>(tx, sql`select id, name, category from items where tenant_id = ${tenantId}`);
  items.sort((a, b) => byName(a.name, b.name) || byText(a.id, b.id));
  let rank = 0;
  return items.map((item, k) => {
    if (k > 0 && byName(items[k - 1]!.name, item.name) !== 0) rank++;
    return { ...item, name_rank: rank };
  });
}

/** Rounds an expected quantity to one decimal, as the answers show it. */
export const oneDecimal = (n: number): number => Math.round(n * 10) / 10;

/** A stay of the window as model.ts reads it. */
export const modelStay = (s: StayRow): ModelStay => ({ id: s.id, arrival: s.arrival_date, departure: s.departure_date, guests: Number(s.guests) });

/**
 * Projects the stock rows of the properties in `scope` over their stays (module comment),
 * inside the caller's tenant transaction.
 */
export async function project(tx: Tx, tenantId: string, now: Date, scope: Scope): Promise<Projection> {
  const cte = await scopeCte(tx, tenantId, now, scope);
  const units = await queryRows<UnitRow>(
    tx,
    sql`${cte}
        select us.id as unit_id, us.name as unit_name, us.address, us.garage_id, g.name as garage_name, us.today::text as today, us.end_day::text as end_day, coalesce(st.stays, 0) as stays
        from us left join st on st.unit_id = us.id left join garages g on g.tenant_id = ${tenantId} and g.id = us.garage_id
        order by us.name, us.id`,
  );
  const rate = { perStay: sql`p.per_stay`, perGuestNight: sql`p.per_guest_night`, fixedShare: sql`p.fixed_share` };
  // Only numbers and ids per stock row (a large company has 100,000): the items' names come once
  // per item, below. The rates are joined plainly: the planner hashes them for a whole company
  // and probes their key for a few properties. (Read first as a materialized CTE, they were
  // probed by a nested loop over the CTE when their statistics predated the first learning:
  // 5 s for 100 properties.)
  const expected = expectedUseSql(rate, sql`st.stays`, sql`st.guest_nights`);
  const windowUse = scope.atLevel ? sql`(${expected} + ${levelMarginSql(expected, sql`p.dispersion`)})` : expected;
  const rows = await queryRows<Omit<PairRow, 'item_name' | 'category'>>(
    tx,
    sql`${cte}
        select p.* from (
          select ${pairColumns}
          from us
          join unit_inventory s on s.tenant_id = ${tenantId} and s.unit_id = us.id
          ${rateJoins}) p
        ${
          scope.every
            ? sql``
            : sql`join st on st.unit_id = p.unit_id
                  where ${belowMinimumSql(sql`p.quantity - ${windowUse}`, sql`p.minimum_threshold + 0.000001`)}`
        }`,
  );
  // Items in name order once; stock rows then sort by the item's place (comparing names 46,000
  // times with a collator cost 1.5 s on a large company).
  const items = await itemsInNameOrder(tx, tenantId);
  const itemAt = new Map(items.map((item, place) => [item.id, { item, place }]));
  const pairs: PairRow[] = rows
    .map((r) => ({ row: r, at: itemAt.get(r.item_id)! }))
    .sort((a, b) => a.at.place - b.at.place)
    .map(({ row, at }) => ({ ...row, item_name: at.item.name, category: at.item.category }));
  const unitIds = scope.every ? units.map((u) => u.unit_id) : [...new Set(pairs.map((p) => p.unit_id))];
  const stays =
    unitIds.length === 0
      ? []
      : await queryRows<StayRow>(
          tx,
          sql`${cte}
              select reservations.unit_id, reservations.source, reservations.id, reservations.arrival_date::text as arrival_date,
                reservations.departure_date::text as departure_date, ${stayGuestsSql(sql`reservations.guests`, sql`us.typical_guests`)} as guests
              from reservations join ud us on us.id = reservations.unit_id
              where reservations.tenant_id = ${tenantId} and reservations.unit_id = any(${pgArray(unitIds)}::uuid[]) and ${countedStay}
              order by reservations.arrival_date, reservations.id`,
        );
  const staysOf = new Map<string, StayRow[]>();
  const modelStaysOf = new Map<string, ModelStay[]>();
  for (const s of stays) {
    if (!staysOf.has(s.unit_id)) {
      staysOf.set(s.unit_id, []);
      modelStaysOf.set(s.unit_id, []);
    }
    staysOf.get(s.unit_id)!.push(s);
    modelStaysOf.get(s.unit_id)!.push(modelStay(s));
  }
  const todayOf = new Map(units.map((u) => [u.unit_id, u.today]));
  const pairsOf = new Map<string, Projected[]>();
  for (const pair of pairs) {
    const rate: Rate = { perStay: Number(pair.per_stay), perGuestNight: Number(pair.per_guest_night), fixedShare: Number(pair.fixed_share), basis: pair.basis };
    const projection = projectItem(Number(pair.quantity), Number(pair.minimum_threshold), rate, modelStaysOf.get(pair.unit_id) ?? [], todayOf.get(pair.unit_id)!);
    if (!pairsOf.has(pair.unit_id)) pairsOf.set(pair.unit_id, []);
    pairsOf.get(pair.unit_id)!.push({ pair, rate, projection });
  }
  return { units, staysOf, pairsOf };
}

/**
 * The past stays each property of `unitIds` has its usage learned from (ShortUnitForecast
 * `past_stays`, docs/product.md "Forecast"): the most `rate_stays` over its stock rows whose rate
 * in force the company learned (basis `property` or `company`, as {@link project} reads them),
 * inside the caller's tenant transaction. A property none of whose rows has such a rate is left
 * out: its forecast learns nothing from stays.
 * @returns property id -> past stays (whole stays, 0 or more).
 */
export async function pastStaysOf(tx: Tx, tenantId: string, unitIds: readonly string[]): Promise<Map<string, number>> {
  if (unitIds.length === 0) return new Map();
  // The rule above without reading every stock row: a property's rates are learned whole, each
  // row of `usage_rates` with the property's past stays (model.ts `learnRates`), and a stock row's
  // rate in force was learned exactly when its item's company rate was (basis 'company'). So: one
  // stock row of such an item, and then any one rate row of the property (none: added since the
  // learning, 0 stays). Reading the 100 stock rows of each of 50 properties with their rates took
  // 10 ms of a Forecast read in `npm run bench`.
  const rows = await queryRows<{ unit_id: string; past_stays: number }>(
    tx,
    sql`select u.id as unit_id,
          coalesce((select ur.stays from usage_rates ur where ur.tenant_id = u.tenant_id and ur.unit_id = u.id limit 1), 0)::int as past_stays
        from units u
        where u.tenant_id = ${tenantId} and u.id = any(${pgArray(unitIds)}::uuid[])
          and exists (
            select 1 from unit_inventory s join item_usage_rates iur on iur.tenant_id = s.tenant_id and iur.item_id = s.item_id
            where s.tenant_id = u.tenant_id and s.unit_id = u.id and iur.basis = 'company')`,
  );
  return new Map(rows.map((r) => [r.unit_id, Number(r.past_stays)]));
}

/** A projected stock row as the answers show it. */
export function itemForecast({ pair, projection }: Projected): ItemForecast {
  const s = projection.shortfall;
  return {
    item_id: pair.item_id,
    item_name: pair.item_name,
    category: pair.category,
    quantity: Number(pair.quantity),
    minimum_threshold: Number(pair.minimum_threshold),
    expected_use: oneDecimal(projection.expectedUse),
    shortfall: s ? { stay_id: s.stay.id, arrival_date: s.stay.arrival, kind: s.kind, projected: oneDecimal(s.projected) } : null,
    bring: projection.bring,
  };
}

/** Orders short items: earliest shortfall first, running out before below the minimum, then by name. */
export const byShortfall = (a: ItemForecast, b: ItemForecast): number =>
  byText(a.shortfall!.arrival_date, b.shortfall!.arrival_date) ||
  (a.shortfall!.kind === b.shortfall!.kind ? 0 : a.shortfall!.kind === 'runs_out' ? -1 : 1) ||
  byName(a.item_name, b.item_name);
