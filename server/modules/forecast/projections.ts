/**
 * The forecast's read model (docs/decisions/037-forecast-read-model.md): each property's
 * projection up to an end day, stored in `unit_projections` and used for as long as nothing it
 * was computed from has changed, so that the Forecast screen and a pick list read a few stored
 * rows instead of projecting a company's every stock row (2 s for 100,000 rows).
 *
 * A stored projection is current when it was computed on the property's today, with the rates in
 * force (rates.ts), by this code's model ({@link FORECAST_MODEL_VERSION}), for a pick list with
 * its lines at the company's service level ({@link ProjectionScope} `atLevel`), and no row of
 * `forecast_changes` names its property. Triggers append such a row in the same transaction as
 * every change of a stock row (any insert, update or deletion, one row per property per statement;
 * migrations 0023 and 0027), a stay, the property's typical guests, or an item's name, category or
 * default use (migration 0023); the ledger's writes need nothing else: whether usage was recorded
 * at a property on its today (which decides whether a stay departing today still counts,
 * project.ts `scopeCte`) changes only with a movement of a stock row or an undo, which changes
 * that row, or with the day. The company's time zone moves the bounds of its properties' today:
 * {@link logCompanyZoneChange} appends their change rows. A refresh computes the projections that
 * are not current and consumes the change rows it read, under the company's advisory lock:
 *
 * - the change rows are read before anything else, so every change consumed is in what is read
 *   next (a change committed meanwhile keeps its row, and its property is computed again later);
 * - refreshes of a company never interleave (two servers would otherwise write an older
 *   projection over a newer one after the newer consumed the changes);
 * - a changed property is computed again for each end it has a projection of, so that none of them
 *   is left looking current.
 */
import { sql, type SQL } from 'drizzle-orm';
import { DEFAULT_SERVICE_LEVEL, type PickListLine, type PickListUnit } from '../../../common/contracts/forecast';
import { pgArray, queryRows, type Db, type Tx } from '../../db/client';
import { withTenant } from '../../db/tenant-tx';
import { coalesce } from '../../lib/coalesce';
import { localDay } from '../stays/local-days';
import { freshRates, ratesAreFresh, ratesLearnedAt } from './rates';
import type { ModelStay } from './model';
import { byShortfall, itemForecast, modelStay, project, scopeCte, type Projected, type Scope, type UnitRow } from './project';
import { bringsAtLevel, stayChance, type StockedItem } from './service-level';

/**
 * The version of the forecast's model, stored with every projection (`unit_projections.model_version`):
 * a projection stored with any other is stale and computed again on its next read, so that a
 * deploy never serves projections of an earlier model, nor an earlier one those of a later model.
 *
 * Raise it whenever the model or the projection's stored shape changes: what project.ts or
 * model.ts compute from the same inputs (rates, stays, guests, thresholds, rounding, ranking,
 * order), or what `unit_projections` stores and the answers read of it (its columns, the JSON of
 * `short_json`, `pick_json` and `brings`, the contracts of common/contracts/forecast.ts those
 * follow). Never 0: that marks the rows kept from before versions were stored (migration 0024).
 */
export const FORECAST_MODEL_VERSION = 5;

/**
 * Logs that the company's time zone changed, inside the caller's tenant transaction (the one that
 * changes it): a change row for each of its properties without a time zone of their own, whose
 * today — the day and the instants it spans, which decide whether usage was recorded on it
 * (project.ts `scopeCte`) — follows the company's. One insert of listed rows: a statement Citus
 * routes to the company's shard (an INSERT … SELECT with the rows' random ids is not).
 */
export async function logCompanyZoneChange(tx: Tx, tenantId: string): Promise<void> {
  const units = await queryRows<{ id: string }>(tx, sql`select id from units where tenant_id = ${tenantId} and time_zone is null`);
  if (units.length === 0) return;
  await tx.execute(sql`insert into forecast_changes (tenant_id, unit_id) values ${sql.join(
    units.map((u) => sql`(${tenantId}, ${u.id})`),
    sql`, `,
  )}`);
}

/** One property's stored projection up to `end_day` ('YYYY-MM-DD', exclusive), computed on `day`. */
export interface UnitProjection {
  unit_id: string;
  day: string;
  end_day: string;
  /** Stays of the window (under way or arriving). */
  stays: number;
  /** Stock rows that would start an arrival short. */
  items_short: number;
  /** The first of those (earliest shortfall, running out first, then by name): its arrival, kind and item. */
  first_shortfall_date: string | null;
  first_runs_out: boolean | null;
  first_item_id: string | null;
  /** Of `items_short`, those that run out before a check-in (the rest are only below their minimum). */
  items_running_out: number;
}

/**
 * Which properties and window: `units` a predicate on the units row `u`, `end` as in
 * project.ts {@link Scope}; `key` names the pair (calls with one key ask for the same thing).
 */
export interface ProjectionScope {
  key: string;
  units: SQL;
  end: Scope['end'];
  /**
   * A pick list's: its lines are those at the company's service level, and a projection stored
   * without them (or at another level) is not current for it. Others store the lines at each
   * stay's expected use, which costs a tenth (`npm run bench`: the Forecast's refresh of 1,000
   * properties did not answer within 10 s with the lines at a level).
   */
  atLevel?: boolean;
}

/** The advisory lock class of the refreshes (the key is the company's). */
const REFRESH_LOCK = 37;

/** A property in scope with its stored projection, whether that is current, and the change rows naming it. */
type ScopeRow = Omit<UnitProjection, 'day'> & { today: string; day: string | null; current: boolean; change_ids: string[] | null };

/**
 * The properties in `scope` with their stored projection for their end, inside the caller's
 * tenant transaction. `changes`: also the ids of the change rows naming each property that is not current.
 */
async function scopeRows(tx: Tx, tenantId: string, now: Date, scope: ProjectionScope, changes: boolean): Promise<ScopeRow[]> {
  const cte = await scopeCte(tx, tenantId, now, scope);
  const named = sql`exists (select 1 from forecast_changes c where c.tenant_id = ${tenantId} and c.unit_id = us.id)`;
  return queryRows<ScopeRow>(
    tx,
    sql`${cte}, ra as (select max(learned_at) as learned_at, (select service_level from tenants where id = ${tenantId}) as service_level
          from item_usage_rates where tenant_id = ${tenantId}),
        sp as (
          select us.id as unit_id, us.today::text as today, us.end_day::text as end_day, p.day::text as day, p.stays, p.items_short,
            p.first_shortfall_date::text as first_shortfall_date, p.first_runs_out, p.first_item_id, p.items_running_out,
            (p.unit_id is not null and p.rates_learned_at is not distinct from ra.learned_at
              and ${scope.atLevel ? sql`p.service_level = ra.service_level` : sql`true`} and p.model_version = ${FORECAST_MODEL_VERSION} and not ${named}) as current
          from us cross join ra
          left join unit_projections p on p.tenant_id = ${tenantId} and p.unit_id = us.id and p.end_day = us.end_day and p.day = us.today)
        select sp.*, ${
          changes
            ? sql`case when sp.current then null else array(select c.id::text from forecast_changes c where c.tenant_id = ${tenantId} and c.unit_id = sp.unit_id) end`
            : sql`null`
        } as change_ids
        from sp`,
  );
}

/** What is stored of a property's projection: its ranking and the parts of the answers, as JSON text. */
interface Stored extends UnitProjection {
  short_json: string;
  pick_json: string;
  brings: [string, number][];
  service_json: string;
}

/**
 * What is stored of `unit`'s projection from its projected stock rows (`projected`, in item-name
 * order) and its stays (`stays`): the short items at the expected use as ShortUnitForecast `items`
 * (by shortfall); the rows to bring as PickListUnit `lines`, with each one's item and quantity for
 * the garage's allocation — at the service level `level` (percent, service-level.ts
 * `bringsAtLevel`) with what those pieces buy against the expected use's (PickListUnit `service`;
 * common/contracts/forecast.ts), or at each stay's expected use when `level` is null.
 */
function stored(unit: UnitRow, projected: readonly Projected[], stays: readonly ModelStay[], level: number | null): Stored {
  const shortAtMean = projected.filter((p) => p.projection.bring > 0).map(itemForecast);
  const short = shortAtMean.filter((l) => l.shortfall).sort(byShortfall);
  const first = short[0];
  const ranked = {
    unit_id: unit.unit_id,
    day: unit.today,
    end_day: unit.end_day,
    stays: Number(unit.stays),
    items_short: short.length,
    first_shortfall_date: first?.shortfall?.arrival_date ?? null,
    first_runs_out: first ? first.shortfall!.kind === 'runs_out' : null,
    first_item_id: first?.item_id ?? null,
    items_running_out: short.filter((l) => l.shortfall!.kind === 'runs_out').length,
    short_json: JSON.stringify(short),
  };
  if (level === null) {
    const pick: PickListLine[] = shortAtMean.map((l) => ({ item_id: l.item_id, quantity: l.quantity, bring: l.bring }));
    return { ...ranked, pick_json: JSON.stringify(pick), brings: pick.map((l) => [l.item_id, l.bring]), service_json: 'null' };
  }
  const items = stockedItems(projected);
  const atLevel = bringsAtLevel(items, stays, unit.today, level / 100);
  const atMean = projected.map((p) => p.projection.bring);
  const pick: PickListLine[] = projected.flatMap(({ pair }, k) =>
    atLevel[k]! > 0 ? [{ item_id: pair.item_id, quantity: Number(pair.quantity), bring: atLevel[k]! }] : [],
  );
  const sum = (ns: readonly number[]) => ns.reduce((a, b) => a + b, 0);
  const service: PickListUnit['service'] = stays.some((s) => s.arrival >= unit.today)
    ? {
        level,
        pieces: sum(atLevel),
        chance: stayChance(items, stays, unit.today, atLevel),
        expected_pieces: sum(atMean),
        expected_chance: stayChance(items, stays, unit.today, atMean),
      }
    : null;
  return { ...ranked, pick_json: JSON.stringify(pick), brings: pick.map((l) => [l.item_id, l.bring]), service_json: JSON.stringify(service) };
}

/** Projected stock rows as the service level's chances read them (service-level.ts), in the same order. */
export function stockedItems(projected: readonly Projected[]): StockedItem[] {
  return projected.map(({ pair, rate }) => ({
    quantity: Number(pair.quantity),
    minimum: Number(pair.minimum_threshold),
    rate,
    dispersion: Number(pair.dispersion),
    ...(pair.item_level === null ? {} : { level: Number(pair.item_level) / 100 }),
  }));
}

/** What a refresh computes with: the rates in force (when learned, null: never) and the company's service level, percent. */
interface StoredWith {
  learnedAt: string | null;
  serviceLevel: number;
}

/** Properties per statement when storing projections (a property's lines are a few kilobytes). */
const STORE_SLICE = 200;

/**
 * Projects the properties `unitIds` up to `end` and stores the result as computed with the rates
 * learned at `at.learnedAt` (read before the projection: rates learned again meanwhile leave it
 * stale, never wrongly current) by {@link FORECAST_MODEL_VERSION}, its pick-list lines at the
 * service level `at.serviceLevel` when `atLevel` (a pick list's scope), inside the caller's transaction.
 */
async function computeAndStore(
  tx: Tx,
  tenantId: string,
  now: Date,
  at: StoredWith,
  unitIds: readonly string[],
  end: Scope['end'],
  atLevel: boolean,
): Promise<Stored[]> {
  if (unitIds.length === 0) return [];
  const { units, pairsOf, staysOf } = await project(tx, tenantId, now, { units: sql`u.id = any(${pgArray(unitIds)}::uuid[])`, end, every: false, atLevel });
  const level = atLevel ? at.serviceLevel : null;
  const rows = units.map((unit) => stored(unit, pairsOf.get(unit.unit_id) ?? [], (staysOf.get(unit.unit_id) ?? []).map(modelStay), level));
  for (let k = 0; k < rows.length; k += STORE_SLICE) {
    await tx.execute(sql`
      insert into unit_projections (tenant_id, unit_id, end_day, day, rates_learned_at, model_version, stays, items_short, first_shortfall_date,
        first_runs_out, first_item_id, items_running_out, short_json, pick_json, brings, service_level, service_json)
      select u.tenant_id, r.unit_id, r.end_day, r.day, ${at.learnedAt}::timestamptz, ${FORECAST_MODEL_VERSION}::int,
        r.stays, r.items_short, r.first_shortfall_date, r.first_runs_out, r.first_item_id, r.items_running_out, r.short_json, r.pick_json, r.brings,
        ${level}::int, r.service_json
      from json_to_recordset(${JSON.stringify(rows.slice(k, k + STORE_SLICE))}::json) as r(unit_id uuid, end_day date, day date, stays int,
        items_short int, first_shortfall_date date, first_runs_out boolean, first_item_id uuid, items_running_out int, short_json text, pick_json text, brings json,
        service_json text)
      -- tenant_id from the company's unit, not a parameter: a statement Citus sends to the company's shard (decision 042).
      join units u on u.tenant_id = ${tenantId} and u.id = r.unit_id
      on conflict (tenant_id, unit_id, end_day) do update set day = excluded.day, rates_learned_at = excluded.rates_learned_at,
        model_version = excluded.model_version, stays = excluded.stays, items_short = excluded.items_short, first_shortfall_date = excluded.first_shortfall_date,
        first_runs_out = excluded.first_runs_out, first_item_id = excluded.first_item_id, items_running_out = excluded.items_running_out, short_json = excluded.short_json,
        pick_json = excluded.pick_json, brings = excluded.brings, service_level = excluded.service_level, service_json = excluded.service_json`);
  }
  return rows;
}

/**
 * Computes and stores the projections of `scope` that are not current (module comment), in one
 * tenant transaction under the company's lock.
 * @returns every property in scope with its projection.
 */
async function refresh({ db, tenantId, now, scope }: RefreshArgs): Promise<UnitProjection[]> {
  return withTenant(db, tenantId, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${REFRESH_LOCK}, hashtext(${tenantId}))`);
    const [inForce] = await queryRows<{ learned_at: string | null; service_level: number }>(
      tx,
      sql`select (select max(learned_at)::text from item_usage_rates where tenant_id = ${tenantId}) as learned_at, service_level
          from tenants where id = ${tenantId}`,
    );
    const at: StoredWith = { learnedAt: inForce?.learned_at ?? null, serviceLevel: Number(inForce?.service_level ?? DEFAULT_SERVICE_LEVEL) };
    const rows = await scopeRows(tx, tenantId, now, scope, true);
    const stale = rows.filter((r) => !r.current);
    if (stale.length === 0) return rows.map(asProjection);
    const fresh = new Map(
      (await computeAndStore(tx, tenantId, now, at, stale.map((r) => r.unit_id), scope.end, scope.atLevel === true)).map((p) => [p.unit_id, ranking(p)]),
    );
    const consumed = stale.flatMap((r) => r.change_ids ?? []);
    // A property deleted since the scope was read has no projection and nothing to compute again.
    const changed = stale.filter((r) => (r.change_ids ?? []).length > 0 && fresh.has(r.unit_id)).map((r) => r.unit_id);
    if (changed.length > 0) {
      // A changed property's other projections of today are computed again (module comment), a
      // pick list's with its lines at the level.
      const others = await queryRows<{ end_day: string; at_level: boolean; unit_ids: string[] }>(
        tx,
        sql`select p.end_day::text as end_day, p.service_level is not null as at_level, array_agg(p.unit_id::text) as unit_ids from unit_projections p
            join (select * from unnest(${pgArray(changed)}::uuid[], ${pgArray(changed.map((id) => fresh.get(id)!.end_day))}::date[],
              ${pgArray(changed.map((id) => fresh.get(id)!.day))}::date[]) as x(unit_id, end_day, day)) x
              on p.unit_id = x.unit_id and p.end_day <> x.end_day and p.day = x.day
            where p.tenant_id = ${tenantId} group by 1, 2`,
      );
      for (const other of others) await computeAndStore(tx, tenantId, now, at, other.unit_ids, { date: other.end_day }, other.at_level);
    }
    if (consumed.length > 0) {
      await tx.execute(sql`delete from forecast_changes where tenant_id = ${tenantId} and id = any(${pgArray(consumed)}::uuid[])`);
    }
    // Projections of past days are never current again; change rows of a property without
    // projections (one deleted, or never projected) change nothing stored.
    await tx.execute(sql`delete from unit_projections where tenant_id = ${tenantId} and day < ${localDay(now, 'UTC')}::date - 2`);
    await tx.execute(sql`delete from forecast_changes c where c.tenant_id = ${tenantId}
      and not exists (select 1 from unit_projections p where p.tenant_id = c.tenant_id and p.unit_id = c.unit_id)`);
    // A property deleted since the scope was read has no projection.
    return rows.flatMap((r) => {
      const p = r.current ? asProjection(r) : fresh.get(r.unit_id);
      return p ? [p] : [];
    });
  });
}

/** A scope row as the projection it holds (current rows only). */
const asProjection = (r: ScopeRow): UnitProjection => ranking({ ...r, day: r.day ?? r.today });

/** The ranking part of a projection. */
function ranking(p: UnitProjection): UnitProjection {
  return {
    unit_id: p.unit_id,
    day: p.day,
    end_day: p.end_day,
    stays: Number(p.stays),
    items_short: Number(p.items_short),
    first_shortfall_date: p.first_shortfall_date,
    first_runs_out: p.first_runs_out,
    first_item_id: p.first_item_id,
    items_running_out: Number(p.items_running_out),
  };
}

interface RefreshArgs {
  db: Db;
  tenantId: string;
  now: Date;
  scope: ProjectionScope;
}

/** One refresh per company and scope at a time; callers arriving during one share the next (lib/coalesce.ts). */
const sharedRefresh = coalesce(refresh, (arg) => `${arg.tenantId}|${arg.scope.key}`);

/**
 * The projections of the properties in `scope` at `now`, inside the caller's tenant transaction,
 * when the rates are fresh (rates.ts `ratesAreFresh`) and every one of them is current (module
 * comment); else null, and {@link refreshProjections} makes them so. A read that finds everything
 * current takes no other transaction.
 * @returns one projection per property in scope, in no particular order, or null.
 */
export async function currentProjections(tx: Tx, tenantId: string, now: Date, scope: ProjectionScope): Promise<{ learnedAt: Date; projections: UnitProjection[] } | null> {
  const learnedAt = await ratesLearnedAt(tx, tenantId);
  if (!ratesAreFresh(learnedAt, now)) return null;
  const rows = await scopeRows(tx, tenantId, now, scope, false);
  return rows.every((r) => r.current) ? { learnedAt: learnedAt!, projections: rows.map(asProjection) } : null;
}

/**
 * Learns the rates again when stale (rates.ts `freshRates`), then computes and stores the
 * projections of `scope` that are not current, in transactions of their own.
 * @returns the rates' learning time and one projection per property in scope.
 */
export async function refreshProjections(db: Db, tenantId: string, now: Date, scope: ProjectionScope): Promise<{ learnedAt: Date; projections: UnitProjection[] }> {
  const learnedAt = await freshRates(db, tenantId, now);
  return { learnedAt, projections: await sharedRefresh({ db, tenantId, now, scope }) };
}

/**
 * Runs `read` in one tenant transaction with the current projections of `scope` (and when the
 * rates were learned): in the first transaction when everything is current, else after
 * {@link refreshProjections}.
 */
export async function withProjections<T>(
  db: Db,
  tenantId: string,
  now: Date,
  scope: ProjectionScope,
  read: (tx: Tx, found: { learnedAt: Date; projections: UnitProjection[] }) => Promise<T>,
): Promise<T> {
  const first = await withTenant(db, tenantId, async (tx) => {
    const found = await currentProjections(tx, tenantId, now, scope);
    return found ? { value: await read(tx, found) } : null;
  });
  if (first) return first.value;
  const found = await refreshProjections(db, tenantId, now, scope);
  return withTenant(db, tenantId, (tx) => read(tx, found));
}

/** What {@link storedJson} reads of a stored projection. */
export interface StoredPart {
  stays: number;
  first_shortfall_date: string | null;
  /** The part, as JSON text. */
  json: string;
  /** Each line's [item id, quantity to bring], with the pick list's part; else empty. */
  brings: [string, number][];
  /** What the lines buy (PickListUnit `service`) as JSON text, with the pick list's part; else 'null'. */
  service_json: string;
}

/**
 * A part of the answers stored with the projections `of` (property and end day), as JSON text,
 * inside the caller's tenant transaction: `short_json`, the short items (ShortUnitForecast `items`),
 * or `pick_json`, the lines to bring (PickListUnit `lines`) with their items and quantities;
 * with the projection's stays and first shortfall as stored with it. A projection replaced since
 * it was read gives its newer part; one deleted since (its property deleted) none.
 */
export async function storedJson(
  tx: Tx,
  tenantId: string,
  part: 'short_json' | 'pick_json',
  of: readonly Pick<UnitProjection, 'unit_id' | 'end_day'>[],
): Promise<Map<string, StoredPart>> {
  if (of.length === 0) return new Map();
  const rows = await queryRows<StoredPart & { unit_id: string }>(
    tx,
    sql`select p.unit_id, p.stays, p.first_shortfall_date::text as first_shortfall_date, ${sql.identifier(part)} as json,
          ${part === 'pick_json' ? sql`p.brings, p.service_json` : sql`'[]'::json as brings, 'null' as service_json`}
        from unit_projections p
        join (select * from unnest(${pgArray(of.map((o) => o.unit_id))}::uuid[], ${pgArray(of.map((o) => o.end_day))}::date[]) as x(unit_id, end_day))
          x on p.unit_id = x.unit_id and p.end_day = x.end_day
        where p.tenant_id = ${tenantId}`,
  );
  return new Map(
    rows.map((r) => [r.unit_id, { stays: Number(r.stays), first_shortfall_date: r.first_shortfall_date, json: r.json, brings: r.brings, service_json: r.service_json }]),
  );
}
