/**
 * The demo seed on a fresh database: what it creates, that the ledger invariant holds over the
 * whole simulated history, that its stays are stored as reservations the ledger agrees with and
 * leave the forecast and tomorrow's pick list something to show, that the dashboard has something
 * to show, and that the demo operator can sign in.
 */
import { millisecondsInDay } from 'date-fns/constants';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../server/db/client';
import { projectItem } from '../server/modules/forecast/model';
import { addLocalDays, localDay } from '../server/modules/stays/local-days';
import { APP_URL, api, backends, createTestApp, type TestApp } from '../server/test/harness';
import { ledgerMismatches } from '../server/test/stock-fixtures';
import { loadHistory } from './backtest/history';
import { ratesKnownOn } from './backtest/replay';
import { DEMO_EMAIL, DEMO_GARAGES, DEMO_ITEMS, DEMO_PASSWORD, DEMO_UNITS } from './demo/catalogue';
import { DEMO_TIME_ZONE, FUTURE_DAYS, HISTORY_DAYS, seedDemo, type SeedDemoSummary } from './demo/seed';

const SEED_TIMEOUT = 180_000;

describe.each(backends)('seed:demo on %s', (backend) => {
  let t: TestApp;
  let summary: SeedDemoSummary;
  const now = new Date();

  beforeAll(async () => {
    t = await createTestApp(backend);
    summary = await seedDemo(t.database, { now });
  }, SEED_TIMEOUT);
  afterAll(() => t.close());

  const signIn = () =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { 'content-type': 'application/json', origin: APP_URL },
      payload: { email: DEMO_EMAIL, password: DEMO_PASSWORD },
    });

  it('creates the company, its garages, properties and items', () => {
    expect(summary).toMatchObject({
      status: 'created',
      email: DEMO_EMAIL,
      password: DEMO_PASSWORD,
      units: DEMO_UNITS.length,
      garages: DEMO_GARAGES.length,
      items: DEMO_ITEMS.length,
    });
    expect(summary.ledgerRows).toBeGreaterThan(5000);
    expect(summary.usageCost).toBeGreaterThan(1000);
  });

  it('keeps every quantity equal to the sum of its ledger rows, none negative', async () => {
    expect(await ledgerMismatches(t)).toEqual([]);
    const [negative] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select (select count(*) from unit_inventory where quantity < 0) + (select count(*) from garage_inventory where quantity < 0) as n`,
    );
    expect(Number(negative!.n)).toBe(0);
    // Every property has a row for every item (onboarding creates them), every garage holds stock.
    const [rows] = await queryRows<{ units: number; garages: number }>(
      t.database.db,
      sql`select (select count(*) from unit_inventory)::int as units, (select count(*) from garage_inventory)::int as garages`,
    );
    expect(rows).toEqual({ units: DEMO_UNITS.length * DEMO_ITEMS.length, garages: DEMO_GARAGES.length * DEMO_ITEMS.length });
  });

  it('spreads the ledger over the last 90 days, never in the future', async () => {
    const [span] = await queryRows<{ first: Date | string; last: Date | string; types: string[] }>(
      t.database.db,
      sql`select min(created_at) as first, max(created_at) as last, array_agg(distinct type order by type) as types from inventory_logs`,
    );
    const first = new Date(span!.first).getTime();
    const last = new Date(span!.last).getTime();
    expect(now.getTime() - first).toBeGreaterThan(88 * millisecondsInDay);
    expect(now.getTime() - first).toBeLessThanOrEqual(90 * millisecondsInDay);
    expect(last).toBeLessThanOrEqual(now.getTime());
    expect(now.getTime() - last).toBeLessThan(2 * millisecondsInDay);
    expect(span!.types).toEqual(['consumption', 'count', 'external_addition', 'initial', 'restock']);
    // Transfers come in pairs that cancel out.
    const unpaired = await queryRows(
      t.database.db,
      sql`select transfer_id from inventory_logs where type = 'restock' group by transfer_id having count(*) <> 2 or sum(quantity_change) <> 0`,
    );
    expect(unpaired).toEqual([]);
  });

  it('stores the simulated stays as reservations: the past ones the ledger consumed, and 30 days ahead', async () => {
    const today = localDay(now, DEMO_TIME_ZONE);
    const stays = await queryRows<{
      id: string;
      unit_id: string;
      arrival: string;
      departure: string;
      nights: number;
      days: number;
      guests: number;
      adults: number | null;
      children: number | null;
      status: string;
      channel: string;
    }>(
      t.database.db,
      sql`select id, unit_id, arrival_date::text as arrival, departure_date::text as departure, nights, departure_date - arrival_date as days,
                 guests, adults, children, status, channel
          from reservations where source = 'demo' order by unit_id, arrival_date`,
    );
    const [tenant] = await queryRows<{ time_zone: string }>(t.database.db, sql`select time_zone from tenants`);
    expect(tenant!.time_zone).toBe(DEMO_TIME_ZONE);
    const past = stays.filter((s) => s.departure < today);
    const future = stays.filter((s) => s.arrival > today);
    // About one stay in 5.5 days per property: 15 properties × 90 days, and × 30 days ahead.
    expect(past.length).toBeGreaterThan(150);
    expect(future.length).toBeGreaterThan(50);
    expect(new Set(stays.map((s) => s.unit_id)).size).toBe(DEMO_UNITS.length);
    const firstDay = addLocalDays(today, -(HISTORY_DAYS - 1));
    for (const s of stays) {
      expect(s).toMatchObject({ status: 'confirmed', adults: null, children: null });
      expect(['Airbnb', 'Vrbo', 'Direct']).toContain(s.channel);
      expect(s.departure > s.arrival).toBe(true);
      expect(s.nights).toBe(s.days);
      expect(s.nights).toBeGreaterThanOrEqual(2);
      expect(s.nights).toBeLessThanOrEqual(7);
      expect(s.guests).toBeGreaterThanOrEqual(1);
      expect(s.guests).toBeLessThanOrEqual(8);
      expect(s.departure >= firstDay).toBe(true);
      expect(s.arrival <= addLocalDays(today, FUTURE_DAYS)).toBe(true);
    }
    // No two stays of a property overlap; the calendars are booked to the end of the 30 days.
    for (let i = 1; i < stays.length; i++) {
      if (stays[i]!.unit_id === stays[i - 1]!.unit_id) expect(stays[i]!.arrival >= stays[i - 1]!.departure).toBe(true);
    }
    expect(future.some((s) => s.arrival >= addLocalDays(today, FUTURE_DAYS - 8))).toBe(true);

    // Every stay that departed before today is one checkout in the ledger, on its departure day.
    const checkouts = await queryRows<{ unit_id: string; day: string }>(
      t.database.db,
      sql`select distinct unit_id, (created_at at time zone ${DEMO_TIME_ZONE})::date::text as day
          from inventory_logs where type = 'consumption' and note like 'Checkout:%'`,
    );
    const checkedOut = checkouts.filter((c) => c.day < today).map((c) => `${c.unit_id} ${c.day}`).sort();
    expect(checkedOut).toEqual(past.map((s) => `${s.unit_id} ${s.departure}`).sort());
  });

  it('leaves properties short before a check-in in the next 7 days, and something to take out of each garage tomorrow', async () => {
    const history = await loadHistory(t.database.db, summary.tenantId!, now);
    const today = history.days.length;
    const todayDate = localDay(now, DEMO_TIME_ZONE);
    const rates = ratesKnownOn(history, today);
    const stock = await queryRows<{ unit_id: string; item_id: string; quantity: number }>(
      t.database.db,
      sql`select unit_id, item_id, quantity from unit_inventory`,
    );
    const quantity = new Map(stock.map((r) => [`${r.unit_id} ${r.item_id}`, Number(r.quantity)]));
    // What the model projects for one property from `day` (index) over 7 days.
    const project = (unitId: string, day: number) =>
      history.items.map((item) =>
        projectItem(
          quantity.get(`${unitId} ${item.id}`) ?? 0,
          item.minimum,
          rates.byUnit.get(unitId)!.get(item.id)!,
          history.stays.filter((s) => s.unitId === unitId && s.departureDay > day && s.arrivalDay < day + 7),
          addLocalDays(todayDate, day - today),
        ),
      );
    const short = history.unitIds.filter((u) => project(u, today).some((p) => p.shortfall !== null));
    expect(short.length).toBeGreaterThanOrEqual(1);
    // Tomorrow's pick list of each garage (docs/product.md "Screens: Pick list": the arrivals of the
    // 7 days from then) has a line to bring that the garage holds.
    const units = await queryRows<{ id: string; garage_id: string }>(t.database.db, sql`select id, garage_id from units`);
    const held = await queryRows<{ garage_id: string; item_id: string; quantity: number }>(
      t.database.db,
      sql`select garage_id, item_id, quantity from garage_inventory`,
    );
    const garageHolds = new Set(held.filter((r) => Number(r.quantity) > 0).map((r) => `${r.garage_id} ${r.item_id}`));
    for (const garageId of new Set(units.map((u) => u.garage_id))) {
      const lines = units
        .filter((u) => u.garage_id === garageId)
        .filter((u) => history.stays.some((s) => s.unitId === u.id && s.arrivalDay >= today + 1 && s.arrivalDay < today + 8))
        .flatMap((u) => project(u.id, today + 1).filter((p, i) => p.bring > 0 && garageHolds.has(`${garageId} ${history.items[i]!.id}`)));
      expect(lines.length, `lines of garage ${garageId}`).toBeGreaterThan(0);
    }
  });

  it('lets the demo operator sign in to a dashboard with low and critical stock', async () => {
    const res = await signIn();
    expect(res.statusCode).toBe(200);
    const cookie = res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const dashboard = await api(t, cookie, 'GET', '/api/dashboard');
    expect(dashboard.statusCode).toBe(200);
    const body = dashboard.json() as {
      stats: { total_units: number; total_items: number; low_stock_items: number; critical_items: number };
      unit_alerts: unknown[];
      recent_activity: { created_at: string }[];
    };
    expect(body.stats).toMatchObject({ total_units: DEMO_UNITS.length, total_items: DEMO_ITEMS.length });
    expect(body.stats.low_stock_items).toBeGreaterThanOrEqual(1);
    expect(body.stats.critical_items).toBeGreaterThanOrEqual(1);
    expect(body.stats).toMatchObject({ low_stock_items: summary.lowUnitRows, critical_items: summary.criticalUnitRows });
    expect(body.unit_alerts.length).toBeGreaterThan(0);
    expect(body.recent_activity.length).toBeGreaterThan(0);
    expect(now.getTime() - new Date(body.recent_activity[0]!.created_at).getTime()).toBeLessThan(2 * millisecondsInDay);
    const me = (await api(t, cookie, 'GET', '/api/me')).json() as { tenant: { name: string }; role: string };
    expect(me).toMatchObject({ tenant: { name: 'Seaside Stays' }, role: 'owner' });
  });

  it('leaves an existing demo user alone, and recreates it with reset', async () => {
    const count = async () =>
      (await queryRows<{ users: number; logs: number }>(
        t.database.db,
        sql`select (select count(*) from users)::int as users, (select count(*) from inventory_logs)::int as logs`,
      ))[0]!;
    const before = await count();
    const again = await seedDemo(t.database, { now });
    expect(again).toMatchObject({ status: 'exists', tenantId: summary.tenantId, password: null });
    expect(await count()).toEqual(before);

    const reset = await seedDemo(t.database, { now, reset: true });
    expect(reset.status).toBe('created');
    expect(reset.tenantId).not.toBe(summary.tenantId);
    // The same seed and clock give the same history, and nothing of the old tenant is left.
    expect(await count()).toEqual(before);
    const [left] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from tenants`);
    expect(left!.n).toBe(1);
    expect(await ledgerMismatches(t)).toEqual([]);
    expect((await signIn()).statusCode).toBe(200);
  }, SEED_TIMEOUT);
});
