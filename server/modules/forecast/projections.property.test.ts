/**
 * The forecast's read model (projections.ts, docs/decisions/037-forecast-read-model.md) against
 * random histories: sequences of every kind of change a projection depends on (plus presses,
 * uses, counts, minimum thresholds, items' default use, names and categories, typical guests,
 * stays added, moved and cancelled, stock rows removed, the company's time zone; uses and counts
 * recorded at the history's time), reads of every answer built from projections, at several
 * horizons and days, and new days. After every read, the answer from the kept projections equals
 * the answer computed from scratch (no projection stored), and the kept projections and change
 * rows are then put back as they were, so that the history goes on from what the application kept.
 *
 * Fixed seed, a few runs: a failure prints the seed and the shrunk sequence (fast-check); rerun it
 * with that seed and `path` in the options below.
 */
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { withTenant } from '../../db/tenant-tx';
import { addStays, company, ok, type Company } from '../../test/forecast-fixtures';
import { api, backends, createTestApp, type TestApp } from '../../test/harness';
import { addLocalDays } from '../stays/local-days';

/** Each run starts on 2026-06-15 at noon UTC, with a company of its own. */
const START = new Date('2026-06-15T12:00:00Z');
const SEED = 37_024;
const RUNS = 8;
/** Time allowed to the whole property, runs and shrinking of a failure (the test's own limit is longer). */
const SHRINK_LIMIT_MS = 150_000;

const UNITS = ['Beach House', 'Cliff Cottage', 'Dune Loft'];
const NAMES = ['Aroma Pods', 'Bath Towel', 'Coffee Pods', 'Linen Set', 'Zinc Soap'];
const CATEGORIES = ['Bath', 'Kitchen', 'Linen'];
const ZONES = ['UTC', 'Pacific/Auckland', 'America/Los_Angeles'];

const unit = fc.nat(UNITS.length - 1);
const item = fc.nat(1);
const horizon = fc.constantFrom(3, 7, 14);
const guests = fc.option(fc.integer({ min: 1, max: 6 }), { nil: null });
const stay = { unit, arrival: fc.integer({ min: -4, max: 16 }), nights: fc.integer({ min: 1, max: 6 }), guests };

/** One step of a history: a change, a read or a new day. */
const step = fc.oneof(
  // Changes.
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('press' as const), unit, item, quantity: fc.integer({ min: 1, max: 6 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('use' as const), unit, item, quantity: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('count' as const), unit, item, counted: fc.nat(12) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('minimum' as const), item, minimum: fc.nat(8) }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('defaultUse' as const), item, use: fc.constantFrom(null, 0, 0.5, 1, 2, 3.25) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rename' as const), item, name: fc.constantFrom(...NAMES), category: fc.constantFrom(...CATEGORIES) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('guests' as const), unit, guests }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('addStay' as const), ...stay }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('changeStay' as const), stay: fc.nat(), ...stay }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancelStay' as const), stay: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('removeRow' as const), unit, item }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('garageStock' as const), quantities: fc.tuple(fc.nat(30), fc.nat(30)) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('timeZone' as const), zone: fc.constantFrom(...ZONES) }) },
  // Reads.
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('forecast' as const), horizon }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('summary' as const) }) },
  // A day after UTC's today: never before the company's, whatever its time zone (null: tomorrow, the default).
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('pickList' as const), day: fc.option(fc.integer({ min: 1, max: 8 }), { nil: null }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('unitForecast' as const), unit, horizon }) },
  // Time: a new day, or rates old enough to be learned again (6 hours).
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('later' as const), hours: fc.constantFrom(2, 7, 24, 31) }) },
);
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

/** What the history has set of an item (an edit sends every field). */
interface ItemState {
  id: string;
  name: string;
  category: string;
  minimum_threshold: number;
  count_cost: number;
  usage_per_stay_default: number | null;
}

describe.each(backends)('forecast read model, random histories (%s)', (backend) => {
  let t: TestApp;
  let runs = 0;

  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  /** The kept projections and change rows of a company, as JSON text. */
  const keep = async (tenantId: string) =>
    (
      await queryRows<{ projections: string; changes: string }>(
        t.database.db,
        sql`select (select coalesce(json_agg(p), '[]')::text from unit_projections p where p.tenant_id = ${tenantId}) as projections,
          (select coalesce(json_agg(c), '[]')::text from forecast_changes c where c.tenant_id = ${tenantId}) as changes`,
      )
    )[0]!;
  const putBack = async (tenantId: string, kept: { projections: string; changes: string }) => {
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`delete from unit_projections where tenant_id = ${tenantId}`);
      await tx.execute(sql`delete from forecast_changes where tenant_id = ${tenantId}`);
      await tx.execute(sql`insert into unit_projections select * from json_populate_recordset(null::unit_projections, ${kept.projections}::json)`);
      await tx.execute(sql`insert into forecast_changes select * from json_populate_recordset(null::forecast_changes, ${kept.changes}::json)`);
    });
  };

  /**
   * Reads `url` from the kept projections, then with none stored (computed from scratch), puts the
   * kept ones back and expects both answers to be the same.
   */
  const agrees = async (c: Company, url: string) => {
    const fromKept = ok(await api(t, c.cookie, 'GET', url));
    const kept = await keep(c.tenantId);
    await t.database.db.execute(sql`delete from unit_projections where tenant_id = ${c.tenantId}`);
    const fromScratch = ok(await api(t, c.cookie, 'GET', url));
    await putBack(c.tenantId, kept);
    expect(fromKept, url).toEqual(fromScratch);
  };

  /** Fails on answers no step may give: a refusal (404 no such row, 409 not enough stock or a name taken) changes nothing. */
  const refusedAtMost = (res: { statusCode: number; body: string }, what: string) => {
    if (![200, 404, 409].includes(res.statusCode)) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
    return res.statusCode === 200;
  };

  it('answers from the kept projections what it computes from scratch, after any history of changes, reads and days', async () => {
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 8, maxLength: 30 }), async (steps) => {
        let now = START;
        t.setNow(now);
        const c = await company(t, `history-${++runs}@example.com`, UNITS);
        const units = UNITS.map((name) => c.unit[name]!);
        const items: ItemState[] = [
          { id: c.item['Bath Towel']!, name: 'Bath Towel', category: 'Linen', minimum_threshold: 3, count_cost: 6.5, usage_per_stay_default: 2 },
          { id: c.item['Coffee Pods']!, name: 'Coffee Pods', category: 'Kitchen', minimum_threshold: 10, count_cost: 0.45, usage_per_stay_default: null },
        ];
        const editItem = async (k: number, change: Partial<ItemState>) => {
          const { id, ...fields } = { ...items[k]!, ...change };
          if (refusedAtMost(await api(t, c.cookie, 'PATCH', `/api/items/${id}`, fields), 'item edit')) items[k] = { id, ...fields };
        };
        await editItem(0, {});
        ok(await api(t, c.cookie, 'PUT', `/api/garages/${c.garageId}/inventory`, { inventory: items.map((i) => ({ item_id: i.id, quantity: 40 })) }));
        const stays: { id: string; unit: string }[] = [];
        const today = () => now.toISOString().slice(0, 10);
        const dates = (s: { arrival: number; nights: number }) => [addLocalDays(today(), s.arrival), addLocalDays(today(), s.arrival + s.nights)] as const;
        const addStay = async (s: { unit: number; arrival: number; nights: number; guests: number | null }) => {
          const id = `s${stays.length + 1}`;
          await addStays(t, c.tenantId, [[units[s.unit]!, id, ...dates(s), s.guests]]);
          stays.push({ id, unit: units[s.unit]! });
        };
        await addStay({ unit: 0, arrival: 1, nights: 2, guests: 2 });
        await addStay({ unit: 1, arrival: 2, nights: 3, guests: null });

        // The ledger stamps its rows with the real clock's time, months after the history's: the
        // rows a use or a count wrote are moved to the history's now, so that usage recorded on a
        // property's today (a stay departing today no longer counts) is part of the histories.
        const recordedNow = async <T>(written: T): Promise<T> => {
          await t.database.db.execute(sql`update inventory_logs set created_at = ${now.toISOString()}::timestamptz
            where tenant_id = ${c.tenantId} and created_at > ${now.toISOString()}::timestamptz`);
          return written;
        };

        const run = async (s: Step) => {
          switch (s.kind) {
            case 'press':
              return refusedAtMost(await api(t, c.cookie, 'POST', `/api/units/${units[s.unit]}/inventory/${items[s.item]!.id}/transfer`, { quantity: s.quantity }), s.kind);
            case 'use':
              return recordedNow(
                refusedAtMost(await api(t, c.cookie, 'POST', `/api/units/${units[s.unit]}/inventory/${items[s.item]!.id}/consume`, { quantity: s.quantity }), s.kind),
              );
            case 'count': {
              const [row] = await queryRows<{ quantity: number }>(
                t.database.db,
                sql`select quantity from unit_inventory where tenant_id = ${c.tenantId} and unit_id = ${units[s.unit]} and item_id = ${items[s.item]!.id}`,
              );
              const line = { item_id: items[s.item]!.id, expected: row ? Number(row.quantity) : 0, counted: s.counted };
              return recordedNow(refusedAtMost(await api(t, c.cookie, 'POST', `/api/units/${units[s.unit]}/count`, { lines: [line] }), s.kind));
            }
            case 'minimum':
              return editItem(s.item, { minimum_threshold: s.minimum });
            case 'defaultUse':
              return editItem(s.item, { usage_per_stay_default: s.use });
            case 'rename':
              return editItem(s.item, { name: s.name, category: s.category });
            case 'guests':
              return ok(await api(t, c.cookie, 'PUT', `/api/units/${units[s.unit]}/calendar`, { typical_guests: s.guests }));
            case 'addStay':
              return addStay(s);
            case 'changeStay': {
              const target = stays[s.stay % Math.max(stays.length, 1)];
              if (!target) return;
              const [arrival, departure] = dates(s);
              // Moved to another property too: the old and the new one change.
              await withTenant(t.database.db, c.tenantId, (tx) =>
                tx.execute(sql`update reservations set unit_id = ${units[s.unit]}, arrival_date = ${arrival}::date, departure_date = ${departure}::date,
                  guests = ${s.guests}::int where tenant_id = ${c.tenantId} and source = 'demo' and id = ${target.id}`),
              );
              target.unit = units[s.unit]!;
              return;
            }
            case 'cancelStay': {
              const target = stays[s.stay % Math.max(stays.length, 1)];
              if (!target) return;
              await withTenant(t.database.db, c.tenantId, (tx) =>
                tx.execute(sql`update reservations set status = 'cancelled' where tenant_id = ${c.tenantId} and source = 'demo' and id = ${target.id}`),
              );
              return;
            }
            case 'removeRow':
              return refusedAtMost(await api(t, c.cookie, 'DELETE', `/api/units/${units[s.unit]}/inventory/${items[s.item]!.id}`), s.kind);
            case 'garageStock':
              return ok(
                await api(t, c.cookie, 'PUT', `/api/garages/${c.garageId}/inventory`, {
                  inventory: items.map((i, k) => ({ item_id: i.id, quantity: s.quantities[k]! })),
                }),
              );
            case 'timeZone':
              return ok(await api(t, c.cookie, 'PUT', '/api/company/time-zone', { time_zone: s.zone }));
            case 'forecast':
              return agrees(c, `/api/forecast?horizon=${s.horizon}`);
            case 'summary':
              return agrees(c, '/api/forecast/summary');
            case 'pickList':
              return agrees(c, `/api/garages/${c.garageId}/pick-list${s.day === null ? '' : `?date=${addLocalDays(today(), s.day)}`}`);
            case 'unitForecast':
              return agrees(c, `/api/units/${units[s.unit]}/forecast?horizon=${s.horizon}`);
            case 'later':
              now = new Date(now.getTime() + s.hours * 3_600_000);
              t.setNow(now);
              return;
          }
        };
        for (const s of steps) await run(s);
        // Whatever the history ended on, every answer is read once more.
        for (const h of [3, 7, 14]) await agrees(c, `/api/forecast?horizon=${h}`);
        await agrees(c, `/api/garages/${c.garageId}/pick-list?date=${addLocalDays(today(), 1)}`);
      }),
      // Shrinking a failure stops after the time limit, with the shortest history found so far.
      { seed: SEED, numRuns: RUNS, interruptAfterTimeLimit: SHRINK_LIMIT_MS, markInterruptAsFailure: true },
    );
    console.log(`${backend}: ${RUNS} histories in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }, 240_000);
});
