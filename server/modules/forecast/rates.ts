/**
 * The learned usage rates (docs/product.md "Forecast", usage per stay): a cache of the ledger and
 * the stays in `usage_rates` (per property and item) and `item_usage_rates` (per item, the
 * company's), rebuilt whole by {@link refreshUsageRates}. It is refreshed by a background job per
 * company every {@link RATES_REFRESH_HOURS} hours (docs/decisions/033-job-queue.md), and in the
 * request when a forecast is asked for while the company's rates are missing or older than
 * {@link RATES_MAX_AGE_HOURS}; concurrent requests of one company share one refresh
 * (lib/coalesce.ts). Without a job queue (tests of the routes) only the second happens.
 */
import { subDays, subHours } from 'date-fns';
import { sql, type SQL } from 'drizzle-orm';
import { pgArray, queryRows, type Db, type Tx } from '../../db/client';
import { withTenant } from '../../db/tenant-tx';
import type { JobQueue } from '../../jobs/queue';
import { coalesce } from '../../lib/coalesce';
import { usageRows } from '../reports/usage-sql';
import { addLocalDays, localDay } from '../stays/local-days';
import { isStay } from '../stays/stay-rules';
import { LEARNING_DAYS, learnRates, type PropertyHistory } from './model';
import { expectedUseSql, stayGuestsSql, stayNightsSql } from './model-sql';
import { DISPERSION_BLOCK_DAYS, dispersionOf } from './service-level';

/** Rates older than this are learned again before a forecast is computed, in hours. */
export const RATES_MAX_AGE_HOURS = 6;

/** Pause between two background refreshes of a company's rates, in hours. */
export const RATES_REFRESH_HOURS = 3;

/** Numbers of the learned rates as numeric(14,4) / numeric(5,4) text (what the columns hold). */
const fixed4 = (n: number): string => n.toFixed(4);

/**
 * Learns every property's and the company's usage rate of every item from the last
 * {@link LEARNING_DAYS} days before `now` and replaces the company's rows of `usage_rates` and
 * `item_usage_rates`, in one tenant transaction. Usage is the ledger's one definition
 * (reports/usage-sql.ts `usageRows`), summed per property and item in SQL; the stays are those of
 * docs/product.md "Stays" that departed in the window, by the company's calendar days
 * (`tenants.time_zone`): departure on or after the day `LEARNING_DAYS` before today, and before
 * today (a stay departing today may not be cleaned up yet). Guest-nights count guests as the
 * forecast does (model-sql.ts).
 * @returns when the rates were learned (`now`).
 */
export async function refreshUsageRates(db: Db, tenantId: string, now: Date): Promise<Date> {
  const start = subDays(now, LEARNING_DAYS);
  await withTenant(db, tenantId, async (tx) => {
    const [tenant] = await queryRows<{ time_zone: string }>(tx, sql`select time_zone from tenants where id = ${tenantId}`);
    const zone = tenant?.time_zone ?? 'UTC';
    const [fromDay, today] = [localDay(start, zone), localDay(now, zone)];
    const properties = await queryRows<{ unit_id: string; stays: number; guest_nights: number }>(
      tx,
      sql`select u.id as unit_id, count(reservations.id)::int as stays,
            coalesce(sum(${stayGuestsSql(sql`reservations.guests`, sql`u.typical_guests`)}
              * ${stayNightsSql(sql`reservations.arrival_date`, sql`reservations.departure_date`)}) filter (where reservations.id is not null), 0)::int as guest_nights
          from units u
          left join reservations on reservations.tenant_id = u.tenant_id and reservations.unit_id = u.id and ${isStay()}
            and reservations.departure_date >= ${fromDay}::date and reservations.departure_date < ${today}::date
          where u.tenant_id = ${tenantId}
          group by u.id`,
    );
    const used = await queryRows<{ unit_id: string; item_id: string; used: number }>(
      tx,
      sql`select x.unit_id, x.item_id, sum(x.used)::bigint as used
          from (${usageRows(tenantId, start, now)}) x
          join units u on u.tenant_id = ${tenantId} and u.id = x.unit_id
          group by x.unit_id, x.item_id`,
    );
    const items = await queryRows<{ id: string; usage_per_stay_default: string | null }>(
      tx,
      sql`select id, usage_per_stay_default from items where tenant_id = ${tenantId}`,
    );

    const histories = new Map<string, PropertyHistory & { used: Map<string, number> }>(
      properties.map((p) => [p.unit_id, { unitId: p.unit_id, stays: Number(p.stays), guestNights: Number(p.guest_nights), used: new Map() }]),
    );
    for (const u of used) histories.get(u.unit_id)?.used.set(u.item_id, Number(u.used));
    const learned = learnRates(
      [...histories.values()],
      items.map((i) => ({ id: i.id, defaultPerStay: i.usage_per_stay_default === null ? null : Number(i.usage_per_stay_default) })),
    );

    // The rows below take tenant_id from the company's items they join, not from a parameter:
    // Citus sends such an INSERT … SELECT whole to the company's shard (decision 042).
    await tx.execute(sql`delete from usage_rates where tenant_id = ${tenantId}`);
    await tx.execute(sql`delete from item_usage_rates where tenant_id = ${tenantId}`);
    const company = [...learned.company.entries()];
    if (company.length > 0) {
      await tx.execute(sql`
        insert into item_usage_rates (tenant_id, item_id, per_stay, per_guest_night, fixed_share, properties, basis, learned_at)
        select i.tenant_id, r.item_id, r.per_stay, r.per_guest_night, r.fixed_share, r.properties, r.basis, ${now.toISOString()}::timestamptz
        from unnest(${pgArray(company.map(([id]) => id))}::uuid[], ${pgArray(company.map(([, r]) => fixed4(r.perStay)))}::numeric[],
          ${pgArray(company.map(([, r]) => fixed4(r.perGuestNight)))}::numeric[], ${pgArray(company.map(([, r]) => fixed4(r.fixedShare)))}::numeric[],
          ${pgArray(company.map(([, r]) => r.properties))}::int[], ${pgArray(company.map(([, r]) => r.basis))}::text[])
          as r(item_id, per_stay, per_guest_night, fixed_share, properties, basis)
        join items i on i.tenant_id = ${tenantId} and i.id = r.item_id`);
    }
    const rows = [...learned.byUnit.entries()].flatMap(([unitId, rates]) => [...rates.entries()].map(([itemId, rate]) => ({ unitId, itemId, rate })));
    // In slices, so no statement carries more than a few megabytes of parameters.
    for (let k = 0; k < rows.length; k += 20_000) {
      const slice = rows.slice(k, k + 20_000);
      await tx.execute(sql`
        insert into usage_rates (tenant_id, unit_id, item_id, per_stay, per_guest_night, fixed_share, stays, guest_nights, basis, learned_at)
        select i.tenant_id, r.unit_id, r.item_id, r.per_stay, r.per_guest_night, r.fixed_share, r.stays, r.guest_nights, r.basis, ${now.toISOString()}::timestamptz
        from unnest(${pgArray(slice.map((s) => s.unitId))}::uuid[], ${pgArray(slice.map((s) => s.itemId))}::uuid[],
          ${pgArray(slice.map((s) => fixed4(s.rate.perStay)))}::numeric[], ${pgArray(slice.map((s) => fixed4(s.rate.perGuestNight)))}::numeric[],
          ${pgArray(slice.map((s) => fixed4(s.rate.fixedShare)))}::numeric[], ${pgArray(slice.map((s) => s.rate.stays))}::int[],
          ${pgArray(slice.map((s) => s.rate.guestNights))}::int[], ${pgArray(slice.map((s) => s.rate.basis))}::text[])
          as r(unit_id, item_id, per_stay, per_guest_night, fixed_share, stays, guest_nights, basis)
        join items i on i.tenant_id = ${tenantId} and i.id = r.item_id`);
    }
    await learnDispersions(tx, tenantId, zone, today, start, now);
  });
  return now;
}

/**
 * Sets each item's `dispersion` (service-level.ts) in the company's `item_usage_rates`, from the
 * rates just stored, inside the caller's tenant transaction. The window's whole blocks of
 * DISPERSION_BLOCK_DAYS company days before `today` (12 weeks of the 90 learning days) are cut per
 * property; in each, the usage recorded (by the company's calendar day of each usage row) is set
 * against the expected use, at the property's rate, of its stays that departed in the block. The
 * sums of `learnDispersion` are taken in SQL (a company of 1,000 properties and 100 items has 1.2
 * million blocks). Only items whose usage the company learned have one: an item at its default,
 * or with none, keeps 1, as does one no block with stays speaks of.
 */
async function learnDispersions(tx: Tx, tenantId: string, zone: string, today: string, start: Date, now: Date): Promise<void> {
  const blocks = Math.floor(LEARNING_DAYS / DISPERSION_BLOCK_DAYS);
  const first = addLocalDays(today, -blocks * DISPERSION_BLOCK_DAYS);
  const blockOf = (day: SQL) => sql`((${day} - ${first}::date) / ${DISPERSION_BLOCK_DAYS}::int)`;
  const sums = await queryRows<{ item_id: string; squares: number; expected: number }>(
    tx,
    sql`with st as materialized (
          select reservations.unit_id, ${blockOf(sql`reservations.departure_date`)} as block, count(*) as stays,
            sum(${stayGuestsSql(sql`reservations.guests`, sql`u.typical_guests`)} * ${stayNightsSql(sql`reservations.arrival_date`, sql`reservations.departure_date`)}) as guest_nights
          from reservations join units u on u.tenant_id = reservations.tenant_id and u.id = reservations.unit_id
          where reservations.tenant_id = ${tenantId} and ${isStay()} and reservations.departure_date >= ${first}::date and reservations.departure_date < ${today}::date
          group by 1, 2),
        ex as materialized (
          select r.unit_id, r.item_id, st.block,
            ${expectedUseSql({ perStay: sql`r.per_stay`, perGuestNight: sql`r.per_guest_night`, fixedShare: sql`r.fixed_share` }, sql`st.stays`, sql`st.guest_nights`)} as expected
          from usage_rates r join st on st.unit_id = r.unit_id
          where r.tenant_id = ${tenantId} and r.basis in ('property', 'company')),
        ob as materialized (
          select x.unit_id, x.item_id, ${blockOf(sql`(x.created_at at time zone ${zone})::date`)} as block, sum(x.used) as used
          from (${usageRows(tenantId, start, now)}) x
          where (x.created_at at time zone ${zone})::date >= ${first}::date and (x.created_at at time zone ${zone})::date < ${today}::date
          group by 1, 2, 3)
        select ex.item_id, sum((coalesce(ob.used, 0) - ex.expected) ^ 2)::float8 as squares, sum(ex.expected)::float8 as expected
        from ex left join ob on ob.unit_id = ex.unit_id and ob.item_id = ex.item_id and ob.block = ex.block
        where ex.expected > 0
        group by ex.item_id`,
  );
  if (sums.length === 0) return;
  await tx.execute(sql`
    update item_usage_rates iur set dispersion = d.dispersion
    from unnest(${pgArray(sums.map((s) => s.item_id))}::uuid[], ${pgArray(sums.map((s) => dispersionOf(Number(s.squares), Number(s.expected)).toFixed(4)))}::numeric[])
      as d(item_id, dispersion)
    where iur.tenant_id = ${tenantId} and iur.item_id = d.item_id`);
}

/** When the company's rates were last learned, null before the first time (inside the caller's transaction). */
export async function ratesLearnedAt(tx: Tx, tenantId: string): Promise<Date | null> {
  const [row] = await queryRows<{ learned_at: string | Date | null }>(
    tx,
    sql`select max(learned_at) as learned_at from item_usage_rates where tenant_id = ${tenantId}`,
  );
  return row?.learned_at ? new Date(row.learned_at) : null;
}

/** Whether rates learned at `learnedAt` (null: never) may be used at `now`: at most {@link RATES_MAX_AGE_HOURS} old, and not from after it. */
export function ratesAreFresh(learnedAt: Date | null, now: Date): boolean {
  return learnedAt !== null && learnedAt > subHours(now, RATES_MAX_AGE_HOURS) && learnedAt <= now;
}

/** One refresh per company at a time; callers arriving during one share the next (lib/coalesce.ts). */
const sharedRefresh = coalesce(
  ({ db, tenantId, now }: { db: Db; tenantId: string; now: Date }) => refreshUsageRates(db, tenantId, now),
  (arg) => arg.tenantId,
);

/**
 * Makes sure the company's rates are at most {@link RATES_MAX_AGE_HOURS} old at `now`, learning
 * them again in the caller's request when not; with a job queue, also keeps the company's
 * background refresh scheduled.
 * @returns when the rates in force were learned.
 */
export async function freshRates(db: Db, tenantId: string, now: Date): Promise<Date> {
  const learnedAt = await withTenant(db, tenantId, (tx) => ratesLearnedAt(tx, tenantId));
  if (ratesAreFresh(learnedAt, now)) return learnedAt!;
  const refreshed = await sharedRefresh({ db, tenantId, now });
  await schedulers.get(db)?.(tenantId);
  return refreshed;
}

/** The pg-boss queue of the background refresh. */
export const RATES_JOB = 'forecast-rates';

/** Per database whose job queue runs the refresh (see {@link startRatesJobs}): queues a company's next one. */
const schedulers = new WeakMap<Db, (tenantId: string) => Promise<void>>();

/**
 * Registers the background refresh of the rates on `queue` (docs/decisions/033-job-queue.md): a
 * job per company that queues the company's next run, {@link RATES_REFRESH_HOURS} later, before
 * learning, so the schedule survives restarts and failures; the `stately` policy keeps one waiting
 * run per company. A company's first job is queued by its first inline refresh. A company that
 * no longer exists ends its chain. `afterLearning(tenantId)` runs after each learning, in the job
 * (the forecast computes its projections with the new rates there, not in someone's request).
 */
export async function startRatesJobs(queue: JobQueue, db: Db, now: () => Date, afterLearning?: (tenantId: string) => Promise<void>): Promise<void> {
  const { boss } = queue;
  await queue.createQueue(RATES_JOB, { name: RATES_JOB, policy: 'stately', retryLimit: 3, retryDelay: 60, retryBackoff: true });
  const next = async (tenantId: string) =>
    void (await boss.send(RATES_JOB, { tenantId }, { singletonKey: `${tenantId}:next`, startAfter: RATES_REFRESH_HOURS * 3600 }));
  await queue.work<{ tenantId: string }>(RATES_JOB, { pollingIntervalSeconds: queue.pollingIntervalSeconds }, async ([job]) => {
    const { tenantId } = job!.data;
    const exists = await withTenant(db, tenantId, (tx) => queryRows(tx, sql`select 1 from tenants where id = ${tenantId}`));
    if (exists.length === 0) return { skipped: 'no such company' };
    await next(tenantId);
    await sharedRefresh({ db, tenantId, now: now() });
    await afterLearning?.(tenantId);
    return { refreshed: true };
  });
  schedulers.set(db, next);
}
