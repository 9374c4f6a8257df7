/**
 * Input limits at the edge (docs/decisions/011-input-limits.md): text with control characters,
 * impossible or unbounded report dates, quantities and costs over their caps are refused with a
 * 400 naming the field and write nothing; a stock row cannot pass its maximum; the usage totals
 * and the reports hold the largest sums the ledger can reach.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_QUANTITY, MAX_STOCK_QUANTITY, MAX_UNIT_COST } from '../../../common/contracts/fields';
import { queryRows } from '../../db/client';
import { withTenant } from '../../db/tenant-tx';
import { constraintError } from '../../lib/constraint-errors';
import { AppError } from '../../lib/errors';
import { api, backends, createTestApp, signUpAndSignIn, type TestApp } from '../../test/harness';
import { ledgerMismatches, stockTenant, type StockTenant } from '../../test/stock-fixtures';

/** Characters no single-line field may hold: NUL, ESC, DEL, a C1 control, newline, tab, an unpaired surrogate. */
const BAD_CHARACTERS = ['\u0000', '\u001b', '\u007f', '\u0085', '\n', '\t', '\ud800'];

describe.each(backends)('input limits on %s', (backend) => {
  let t: TestApp;
  let s: StockTenant;
  /** A signed-in user who has not created a company yet. */
  let newcomer: string;

  beforeAll(async () => {
    t = await createTestApp(backend);
    s = await stockTenant(t, 'limits@example.com');
    newcomer = await signUpAndSignIn(t, 'newcomer@example.com');
  });
  afterAll(() => t.close());

  /** Row counts of every table a create or update body could write. */
  const footprint = async () =>
    (
      await queryRows(
        t.database.db,
        sql`select (select count(*) from tenants)::int as tenants, (select count(*) from items)::int as items,
                   (select count(*) from garages)::int as garages, (select count(*) from units)::int as units,
                   (select count(*) from inventory_logs)::int as logs,
                   (select string_agg(name || '|' || coalesce(category, ''), ',' order by id) from
                      (select id, name, category from items union all select id, name || address, null from garages
                       union all select id, name || address, null from units) n) as names`,
      )
    )[0];

  /**
   * Every text field of every create and update body: who sends it, where, and the body with
   * `value` in that field (the other fields valid).
   */
  const textFields = (): { field: string; label: string; cookie: string; method: 'POST' | 'PATCH'; url: string; body: (value: string) => unknown }[] => {
    const item = { name: 'Towel', category: 'Linen' };
    const place = { name: 'Annex', address: '3 Side Street' };
    const unit = { ...place, garage_id: s.garageId };
    const towel = s.itemIds['Bath Towel']!;
    const cases = [
      { url: '/api/items', method: 'POST' as const, base: item },
      { url: `/api/items/${towel}`, method: 'PATCH' as const, base: item },
      { url: '/api/garages', method: 'POST' as const, base: place },
      { url: `/api/garages/${s.garageId}`, method: 'PATCH' as const, base: place },
      { url: '/api/units', method: 'POST' as const, base: unit },
      { url: `/api/units/${s.unitId}`, method: 'PATCH' as const, base: unit },
      { url: '/api/onboarding/garage', method: 'POST' as const, base: place },
    ];
    const labels: Record<string, string> = { name: 'Name', category: 'Category', address: 'Address' };
    return [
      ...cases.flatMap(({ url, method, base }) =>
        Object.keys(base)
          .filter((field) => field in labels)
          .map((field) => ({ field, label: labels[field]!, cookie: s.cookie, method, url, body: (value: string) => ({ ...base, [field]: value }) })),
      ),
      { field: 'company_name', label: 'Company name', cookie: newcomer, method: 'POST', url: '/api/onboarding/company', body: (value) => ({ company_name: value }) },
      { field: 'items.0.name', label: 'Name', cookie: s.cookie, method: 'POST', url: '/api/onboarding/items', body: (value) => ({ items: [{ ...item, name: value }] }) },
      { field: 'items.0.category', label: 'Category', cookie: s.cookie, method: 'POST', url: '/api/onboarding/items', body: (value) => ({ items: [{ ...item, category: value }] }) },
      { field: 'units.0.name', label: 'Name', cookie: s.cookie, method: 'POST', url: '/api/onboarding/units', body: (value) => ({ units: [{ ...place, name: value }] }) },
      { field: 'units.0.address', label: 'Address', cookie: s.cookie, method: 'POST', url: '/api/onboarding/units', body: (value) => ({ units: [{ ...place, address: value }] }) },
    ];
  };

  it('refuses control characters in every text field with a 400 naming the field, writing nothing', async () => {
    const before = await footprint();
    for (const { field, label, cookie, method, url, body } of textFields()) {
      for (const bad of BAD_CHARACTERS) {
        const res = await api(t, cookie, method, url, body(`Bad${bad}Value`));
        const what = `${method} ${url} ${field} U+${bad.charCodeAt(0).toString(16).padStart(4, '0')}`;
        expect(res.statusCode, what).toBe(400);
        expect(res.json().error, what).toMatchObject({
          code: 'VALIDATION',
          message: `${label} must not contain control characters`,
          issues: [{ path: field.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) }],
        });
      }
    }
    expect(await footprint()).toEqual(before);
    // Spaces around a value are trimmed as before; letters of any script are text.
    const fine = await api(t, s.cookie, 'POST', '/api/items', { name: '  Serviette éponge 🧺 ', category: 'Linge' });
    expect(fine.statusCode).toBe(201);
    expect(fine.json()).toMatchObject({ name: 'Serviette éponge 🧺', category: 'Linge' });
    expect((await api(t, s.cookie, 'DELETE', `/api/items/${fine.json().id}`)).statusCode).toBe(204);
  });

  it('refuses quantities, thresholds and costs over their caps, accepting the caps themselves', async () => {
    const towel = s.itemIds['Bath Towel']!;
    const before = await footprint();
    const refused: [string, 'POST' | 'PUT' | 'PATCH', string, unknown, string][] = [
      ['cost', 'POST', '/api/items', { name: 'Gold', category: 'X', count_cost: MAX_UNIT_COST + 0.01 }, 'Count cost must be at most $1,000,000'],
      ['threshold', 'PATCH', `/api/items/${towel}`, { name: 'Towel', category: 'Linen', minimum_threshold: MAX_QUANTITY + 1 }, 'Minimum threshold must be at most 1,000,000'],
      ['onboarding cost', 'POST', '/api/onboarding/items', { items: [{ name: 'Gold', category: 'X', count_cost: 9_999_999_999.99 }] }, 'Count cost must be at most $1,000,000'],
      ['garage line', 'PUT', `/api/garages/${s.garageId}/inventory`, { inventory: [{ item_id: towel, quantity: MAX_QUANTITY + 1 }] }, 'Quantity must be at most 1,000,000'],
      ['new garage line', 'POST', '/api/garages', { name: 'G', address: 'A', inventory: [{ item_id: towel, quantity: 1e9 }] }, 'Quantity must be at most 1,000,000'],
      ['new unit line', 'POST', '/api/units', { name: 'U', address: 'A', garage_id: s.garageId, inventory: [{ item_id: towel, quantity: 1e9 }] }, 'Quantity must be at most 1,000,000'],
      ['Add Manually', 'POST', `/api/units/${s.unitId}/inventory`, { item_id: towel, quantity: MAX_QUANTITY + 1 }, 'Quantity must be at most 1,000,000'],
    ];
    for (const [what, method, url, body, message] of refused) {
      const res = await api(t, s.cookie, method, url, body);
      expect(res.statusCode, what).toBe(400);
      expect(res.json().error.message, what).toBe(message);
    }
    expect(await footprint()).toEqual(before);
    const atCaps = await api(t, s.cookie, 'POST', '/api/items', { name: 'Caps', category: 'X', count_cost: MAX_UNIT_COST, minimum_threshold: MAX_QUANTITY });
    expect(atCaps.statusCode).toBe(201);
    expect(atCaps.json()).toMatchObject({ count_cost: MAX_UNIT_COST, minimum_threshold: MAX_QUANTITY });
    expect((await api(t, s.cookie, 'DELETE', `/api/items/${atCaps.json().id}`)).statusCode).toBe(204);
  });

  it('refuses impossible and unbounded custom report dates with a 400 naming the date', async () => {
    const costs = (start: string, end: string) => api(t, s.cookie, 'GET', `/api/reports/costs?period=custom&start=${start}&end=${end}`);
    const cases: [string, string, string, string][] = [
      ['0000-01-01', '2024-01-31', 'start', 'Start date must be 2000-01-01 or later'],
      ['2024-13-01', '2024-12-31', 'start', 'Start date must be a real date (YYYY-MM-DD)'],
      ['2024-02-30', '2024-03-31', 'start', 'Start date must be a real date (YYYY-MM-DD)'],
      ['2023-02-01', '2023-02-29', 'end', 'End date must be a real date (YYYY-MM-DD)'],
      ['2024-01-01', '9999-12-31', 'end', 'End date cannot be in the future'],
      ['9999-12-31', '9999-12-31', 'end', 'End date cannot be in the future'],
      ['0001-01-01', '9999-12-31', 'start', 'Start date must be 2000-01-01 or later'],
      ['1999-12-31', '2000-01-01', 'start', 'Start date must be 2000-01-01 or later'],
      ['2023-01-01', '2024-01-02', 'end', 'A custom range can cover at most 366 days'],
    ];
    for (const [start, end, field, message] of cases) {
      const began = performance.now();
      const res = await costs(start, end);
      expect(res.statusCode, `${start} → ${end}`).toBe(400);
      expect(res.json().error, `${start} → ${end}`).toMatchObject({ code: 'VALIDATION', message, issues: [{ path: [field], message }] });
      expect(performance.now() - began, `${start} → ${end}`).toBeLessThan(1_000);
    }
    // A leap day is a real date; 366 days (a leap year, both ends included) is the longest range.
    const leapYear = await costs('2024-01-01', '2024-12-31');
    expect(leapYear.statusCode).toBe(200);
    expect(leapYear.json().trend).toHaveLength(366);
    expect(leapYear.json().trend[59]).toEqual({ date: '2024-02-29', total_cost: 0, total_items: 0 });
    expect((await costs('2000-01-01', '2000-01-01')).statusCode).toBe(200);
  });

  it('maps the stock maximum constraint, as either driver reports it through drizzle, to a 409', async () => {
    const pods = s.itemIds['Coffee Pods']!;
    const err = await withTenant(t.database.db, s.tenantId, (tx) =>
      tx.execute(sql`update unit_inventory set quantity = ${MAX_STOCK_QUANTITY + 1} where tenant_id = ${s.tenantId} and unit_id = ${s.unitId} and item_id = ${pods}`),
    ).catch((e: unknown) => e);
    const mapped = constraintError(err);
    expect(mapped).toBeInstanceOf(AppError);
    expect({ status: mapped?.status, code: mapped?.code, message: mapped?.message }).toEqual({
      status: 409,
      code: 'CONFLICT',
      message: 'A location can hold at most 10,000,000 of an item. Nothing was changed.',
    });
    // Other failures are left to the error handler as they were.
    expect(constraintError(new Error('boom'))).toBeNull();
    const other = await withTenant(t.database.db, s.tenantId, (tx) =>
      tx.execute(sql`update unit_inventory set quantity = -1 where tenant_id = ${s.tenantId} and unit_id = ${s.unitId} and item_id = ${pods}`),
    ).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(Error);
    expect(constraintError(other)).toBeNull();
  });

  it('refuses Add Manually past the stock maximum with a 409 naming it, changing nothing', async () => {
    const towel = s.itemIds['Bath Towel']!;
    const add = (quantity: number) => api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory`, { item_id: towel, quantity });
    for (let i = 0; i < MAX_STOCK_QUANTITY / MAX_QUANTITY; i++) expect((await add(MAX_QUANTITY)).statusCode).toBe(200);
    const logs = async () => (await footprint())!.logs;
    const written = await logs();
    for (const quantity of [1, MAX_QUANTITY]) {
      const refused = await add(quantity);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toEqual({ code: 'CONFLICT', message: 'A location can hold at most 10,000,000 of an item. Nothing was changed.' });
    }
    expect(await logs()).toBe(written);
    const unit = (await api(t, s.cookie, 'GET', `/api/units/${s.unitId}`)).json() as { inventory: { item_id: string; quantity: number }[] };
    expect(unit.inventory.find((r) => r.item_id === towel)?.quantity).toBe(MAX_STOCK_QUANTITY);
    expect(await ledgerMismatches(t)).toEqual([]);
    // The full row still empties (minus, then removal as a count to 0) and the item can go.
    expect((await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${towel}/consume`)).json()).toMatchObject({ unit_quantity: MAX_STOCK_QUANTITY - 1 });
    expect((await api(t, s.cookie, 'DELETE', `/api/units/${s.unitId}/inventory/${towel}`)).statusCode).toBe(200);
    expect(await ledgerMismatches(t)).toEqual([]);
  });
});

describe.each(backends)('usage totals and reports at the largest values on %s', (backend) => {
  let t: TestApp;
  let s: StockTenant;
  let gold: string;
  beforeAll(async () => {
    t = await createTestApp(backend);
    s = await stockTenant(t, 'maximal@example.com', [
      { name: 'Gold', category: 'Vault', minimum_threshold: MAX_QUANTITY, count_cost: MAX_UNIT_COST },
      { name: 'Soap', category: 'Bath', minimum_threshold: 1, count_cost: 0.2 },
    ]);
    gold = s.itemIds.Gold!;
  });
  afterAll(() => t.close());

  /** The tenant's usage totals (docs/decisions/007-usage-rollups.md), summed: units' days (pieces, whole cents), garages' days and weeks. */
  const totals = async () =>
    (
      await queryRows<{ unit_used: string; unit_cents: string; garage_used: string; week_used: string }>(
        t.database.db,
        sql`select (select sum(used)::text from unit_usage_daily where tenant_id = ${s.tenantId}) as unit_used,
                   (select round(sum(cost_cents))::text from unit_usage_daily where tenant_id = ${s.tenantId}) as unit_cents,
                   (select sum(used)::text from garage_usage_daily where tenant_id = ${s.tenantId}) as garage_used,
                   (select sum(used)::text from garage_usage_weekly where tenant_id = ${s.tenantId}) as week_used`,
      )
    )[0]!;

  it('a full row at the highest cost is used up, and every report still answers', async () => {
    for (let i = 0; i < MAX_STOCK_QUANTITY / MAX_QUANTITY; i++) {
      expect((await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory`, { item_id: gold, quantity: MAX_QUANTITY })).statusCode).toBe(200);
    }
    expect((await api(t, s.cookie, 'PUT', `/api/garages/${s.garageId}/inventory`, { inventory: [{ item_id: gold, quantity: MAX_QUANTITY }] })).statusCode).toBe(200);
    expect((await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${gold}/consume`)).statusCode).toBe(200);
    expect((await api(t, s.cookie, 'DELETE', `/api/units/${s.unitId}/inventory/${gold}`)).statusCode).toBe(200);
    // 10,000,000 used at $1,000,000: $10^13, 10^15 cents.
    expect(await totals()).toEqual({ unit_used: '10000000', unit_cents: '1000000000000000', garage_used: '10000000', week_used: '10000000' });
    const week = await api(t, s.cookie, 'GET', '/api/reports/costs?period=week');
    expect(week.statusCode).toBe(200);
    expect(week.json()).toMatchObject({ total_cost: 1e13, total_items: MAX_STOCK_QUANTITY });
    for (const [method, url, body] of [
      ['POST', '/api/reports/assistant', { type: 'summary', days: 7 }],
      ['POST', '/api/reports/assistant', { type: 'expenses', days: 7 }],
      ['GET', '/api/reports/status', undefined],
      ['GET', '/api/dashboard', undefined],
    ] as const) {
      const res = await api(t, s.cookie, method, url, body);
      expect(res.statusCode, `${method} ${url} ${res.body.slice(0, 200)}`).toBe(200);
    }
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('the totals hold a day beyond 2^31 pieces and 2^63 cents, and the cost report sums it', async () => {
    // Usage rows as large as the columns allow, like rows written before the limits existed: a
    // day of one unit, garage and item of 2 × 2,000,000,000 pieces at $9,999,999,999.99.
    const before = await totals();
    const row = sql`(${s.tenantId}::uuid, ${gold}::uuid, -2000000000, 'unit', ${s.unitId}::uuid, 'consumption', 9999999999.99, now())`;
    await t.database.db.execute(sql`
      insert into inventory_logs (tenant_id, item_id, quantity_change, source_type, unit_id, type, unit_cost, created_at)
      values ${row}, ${row}`);
    const after = await totals();
    const grown = (a: string, b: string) => (BigInt(a) - BigInt(b)).toString();
    expect(grown(after.unit_used, before.unit_used)).toBe('4000000000');
    expect(grown(after.garage_used, before.garage_used)).toBe('4000000000');
    expect(grown(after.week_used, before.week_used)).toBe('4000000000');
    expect(grown(after.unit_cents, before.unit_cents)).toBe('3999999999996000000000');
    // Assigning the unit to another garage moves that history along.
    const annex = (await api(t, s.cookie, 'POST', '/api/garages', { name: 'Annex', address: '2 Side' })).json().id as string;
    expect((await api(t, s.cookie, 'PATCH', `/api/units/${s.unitId}`, { name: 'Beach House', address: '2 Shore Lane', garage_id: annex })).statusCode).toBe(200);
    const [moved] = await queryRows<{ used: string }>(
      t.database.db,
      sql`select sum(used)::text as used from garage_usage_daily where tenant_id = ${s.tenantId} and garage_id = ${annex}`,
    );
    expect(moved!.used).toBe(after.garage_used);
    const week = await api(t, s.cookie, 'GET', '/api/reports/costs?period=week');
    expect(week.statusCode).toBe(200);
    expect(week.json().total_items).toBe(4_010_000_000);
    const summary = await api(t, s.cookie, 'POST', '/api/reports/assistant', { type: 'summary', days: 7 });
    expect(summary.statusCode, summary.body.slice(0, 200)).toBe(200);
  });
});
