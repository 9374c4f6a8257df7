/**
 * The report assistant over a known ledger: exact facts and CSV rows of every report type,
 * money summed without float error, the narrative through a fake OpenAI-compatible API (and the
 * computed summary when it fails, times out or is not configured), the plan feature and the
 * expired-trial gate, and no rows of another tenant.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportTypeLabels, reportTypes, type ReportType } from '../../../../common/contracts/reports';
import { ConfigError, loadConfig } from '../../../config';
import { enterTenantScope } from '../../../db/tenant-tx';
import { createAi } from '../../../integrations/ai';
import { startFakeOpenAi, type FakeOpenAi } from '../../../test/fake-openai';
import { api, backends, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness';
import { stockTenant, type StockTenant } from '../../../test/stock-fixtures';
import { setTenantPlan, setTrialEnd } from '../../billing/operator';
import { limitNote, narrativePrompt, NO_MODEL_NOTE, plainSummary, SYSTEM_PROMPT, UNAVAILABLE_NOTE } from './narrative';
import { reportBuilders } from './registry';
import { toCsv } from '../../../lib/csv';
import { reportRange, type ReportFacts } from './shared';

const NOW = new Date('2026-06-30T12:00:00Z');

/** Runs `action` through the API and dates the movements it wrote (still dated today) `iso`. */
async function at<R extends { statusCode: number; body: string }>(t: TestApp, iso: string, action: () => Promise<R>): Promise<R> {
  const res = await action();
  if (res.statusCode >= 300) throw new Error(`${res.statusCode} ${res.body}`);
  await t.database.db.execute(sql`update inventory_logs set created_at = ${iso}::timestamptz where created_at > ${NOW.toISOString()}::timestamptz`);
  return res;
}

/** Computes a report directly, as the route does. */
function compute(t: TestApp, tenantId: string, type: ReportType, days = 7, limit = 50): Promise<ReportFacts> {
  return t.database.db.transaction(async (tx) => {
    await enterTenantScope(tx, tenantId);
    return reportBuilders[type](tx, tenantId, reportRange(NOW, days, limit));
  });
}

/**
 * Tenant "Seaside": items Towel (Linen, min 2, $6.50), Sheet (Linen, min 1, $12.00), Pods
 * (Kitchen, min 5, $0.10), Dish Soap (Kitchen, min 1, $0.20), Candle (Decor, min 0, $3.00);
 * garages Main Storage and North Depot; units Beach House, Loft, Cabin (Main Storage) and Villa
 * (North Depot). Usage in the 7 days before NOW: Loft 5 towels, Cabin 1 towel and 2 pods, Villa 1
 * towel (a negative count), Beach House 1 pod and 1 dish soap ($0.10 + $0.20). Stays (the company
 * in UTC) that departed in those 7 days, before today: 2 at the Loft and 1 at the Cabin; not
 * counted, the Loft's stay departing today, its cancelled one and the Cabin's that departed on the
 * 22nd (inside 30 days); Villa and Beach House have none.
 */
async function seaside(t: TestApp): Promise<StockTenant & { units: Record<string, string> }> {
  const s = await stockTenant(t, 'seaside@example.com', [
    { name: 'Towel', category: 'Linen', minimum_threshold: 2, count_cost: 6.5 },
    { name: 'Sheet', category: 'Linen', minimum_threshold: 1, count_cost: 12 },
    { name: 'Pods', category: 'Kitchen', minimum_threshold: 5, count_cost: 0.1 },
    { name: 'Dish Soap', category: 'Kitchen', minimum_threshold: 1, count_cost: 0.2 },
    { name: 'Candle', category: 'Decor', minimum_threshold: 0, count_cost: 3 },
  ]);
  const { Towel: towel, Sheet: sheet, Pods: pods, 'Dish Soap': soap, Candle: candle } = s.itemIds as Record<string, string>;
  const call = (method: 'POST' | 'PUT', url: string, body?: unknown) => () => api(t, s.cookie, method, url, body);
  const april = '2026-04-01T00:00:00Z';
  const mainStock = (soapQuantity: number) => ({
    inventory: [
      { item_id: towel!, quantity: 10 },
      { item_id: pods!, quantity: 30 },
      { item_id: soap!, quantity: soapQuantity },
      { item_id: candle!, quantity: 6 },
    ],
  });
  await at(t, april, call('PUT', `/api/garages/${s.garageId}/inventory`, mainStock(4)));
  const north = (
    await at(t, april, call('POST', '/api/garages', { name: 'North Depot', address: '5 Quay', inventory: [{ item_id: towel!, quantity: 2 }, { item_id: sheet!, quantity: 5 }] }))
  ).json().id as string;
  const unit = async (name: string, garageId: string, inventory: { item_id: string; quantity: number }[]) =>
    (await at(t, april, call('POST', '/api/units', { name, address: `${name} Road`, garage_id: garageId, inventory }))).json().id as string;
  const loft = await unit('Loft', s.garageId, [{ item_id: towel!, quantity: 6 }, { item_id: soap!, quantity: 3 }]);
  const cabin = await unit('Cabin', s.garageId, [{ item_id: towel!, quantity: 3 }, { item_id: pods!, quantity: 4 }]);
  const villa = await unit('Villa', north, [{ item_id: towel!, quantity: 4 }, { item_id: sheet!, quantity: 2 }]);
  const beach = s.unitId;
  await at(t, april, call('POST', `/api/units/${beach}/inventory`, { item_id: pods!, quantity: 20 }));
  await at(t, april, call('POST', `/api/units/${beach}/inventory`, { item_id: soap!, quantity: 2 }));

  const consume = (when: string, unitId: string, itemId: string, times = 1) =>
    (async () => {
      for (let i = 0; i < times; i++) await at(t, when, call('POST', `/api/units/${unitId}/inventory/${itemId}/consume`));
    })();
  // Outside 7 and 30 days, inside 90: 5 pods at the Beach House.
  await consume('2026-05-01T08:00:00Z', beach, pods!, 5);
  await consume('2026-06-25T00:00:00Z', loft, towel!, 2);
  await consume('2026-06-26T09:00:00Z', villa, towel!);
  await consume('2026-06-27T09:00:00Z', cabin, towel!);
  // A stocktake at Main Storage finds one dish soap missing.
  await at(t, '2026-06-27T10:00:00Z', call('PUT', `/api/garages/${s.garageId}/inventory`, mainStock(3)));
  await consume('2026-06-28T15:00:00Z', loft, towel!, 3);
  await consume('2026-06-29T10:00:00Z', cabin, pods!, 2);
  await consume('2026-06-29T10:00:00Z', beach, pods!);
  await consume('2026-06-29T23:59:59Z', beach, soap!);
  // A transfer from the garage is not usage.
  await at(t, '2026-06-29T11:00:00Z', call('POST', `/api/units/${loft}/inventory/${towel!}/transfer`, { quantity: 1 }));
  // Villa's towel was found missing in a count rather than consumed: usage, and lost in counts.
  await t.database.db.execute(sql`update inventory_logs set type = 'count' where unit_id = ${villa} and created_at = '2026-06-26T09:00:00Z'`);
  await t.database.db.execute(sql`
    insert into reservations (tenant_id, source, id, unit_id, arrival_date, departure_date, guests, status) values
      (${s.tenantId}, 'calendar', 'loft-1', ${loft}, '2026-06-22', '2026-06-25', 2, 'confirmed'),
      (${s.tenantId}, 'calendar', 'loft-2', ${loft}, '2026-06-26', '2026-06-28', 2, 'confirmed'),
      (${s.tenantId}, 'calendar', 'loft-3', ${loft}, '2026-06-28', '2026-06-30', 2, 'confirmed'),
      (${s.tenantId}, 'hostaway', 'loft-4', ${loft}, '2026-06-26', '2026-06-27', 2, 'cancelled'),
      (${s.tenantId}, 'calendar', 'cabin-1', ${cabin}, '2026-06-20', '2026-06-22', 2, 'confirmed'),
      (${s.tenantId}, 'calendar', 'cabin-2', ${cabin}, '2026-06-27', '2026-06-29', 2, 'confirmed')`);
  return { ...s, units: { loft, cabin, villa, beach, north } };
}

/** Tenant "Harbour": Champagne and Robe, used and lost in the same week. */
async function harbour(t: TestApp): Promise<StockTenant> {
  const s = await stockTenant(t, 'harbour@example.com', [
    { name: 'Champagne', category: 'Bar', minimum_threshold: 2, count_cost: 25 },
    { name: 'Robe', category: 'Spa', minimum_threshold: 1, count_cost: 40 },
  ]);
  const { Champagne: champagne, Robe: robe } = s.itemIds as Record<string, string>;
  await at(t, '2026-04-01T00:00:00Z', () => api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory`, { item_id: champagne!, quantity: 10 }));
  await at(t, '2026-04-01T00:00:00Z', () => api(t, s.cookie, 'PUT', `/api/garages/${s.garageId}/inventory`, { inventory: [{ item_id: robe!, quantity: 5 }] }));
  for (let i = 0; i < 4; i++) await at(t, '2026-06-28T00:00:00Z', () => api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${champagne!}/consume`));
  await at(t, '2026-06-27T00:00:00Z', () => api(t, s.cookie, 'PUT', `/api/garages/${s.garageId}/inventory`, { inventory: [{ item_id: robe!, quantity: 2 }] }));
  return s;
}

const WEEK = 'the last 7 days (2026-06-23 12:00 to 2026-06-30 12:00 UTC)';

/** Seaside's reports over the 7 days before NOW, worked out by hand from the ledger above. */
const expected: Record<ReportType, ReportFacts> = {
  summary: {
    facts: [
      '5 items tracked across 2 garages and 4 units.',
      // Garages: Towel 10 - 1 restocked + 2, Sheet 5, Pods 30, Dish Soap 4 - 1 lost, Candle 6.
      'Stock on hand now: 55 in garages and 29 in units.',
      "Unit stock rows now: 3 critical (quantity 0) and 4 low (at or below the item's minimum).",
      `In ${WEEK}: 11 items used, costing $46.00.`,
      'Highest usage cost: Towel (7 used, $45.50), Pods (3 used, $0.30), Dish Soap (1 used, $0.20).',
    ],
    columns: ['Item', 'Category', 'In garages', 'In units', 'Units low', 'Units critical', 'Used', 'Cost ($)'],
    rows: [
      ['Towel', 'Linen', 11, 7, 2, 1, 7, '45.50'],
      ['Candle', 'Decor', 6, 0, 0, 1, 0, '0.00'],
      ['Sheet', 'Linen', 5, 2, 0, 1, 0, '0.00'],
      ['Pods', 'Kitchen', 30, 16, 1, 0, 3, '0.30'],
      ['Dish Soap', 'Kitchen', 3, 4, 1, 0, 1, '0.20'],
    ],
  },
  critical: {
    facts: [
      '8 stock rows low or critical now: 3 critical and 5 low (7 at units, 1 at garages).',
      "Rule: a row is critical at quantity 0 and low at or below its item's minimum.",
      'Critical: Towel at Beach House has 0 (minimum 2); Main Storage has 9 to restock it.',
      'Critical: Sheet at Beach House has 0 (minimum 1); Main Storage has none to restock it.',
      'Critical: Candle at Beach House has 0 (minimum 0); Main Storage has 6 to restock it.',
      'Low: Pods at Cabin has 2 (minimum 5); Main Storage has 30 to restock it.',
      'Low: Dish Soap at Beach House has 1 (minimum 1); Main Storage has 3 to restock it.',
      "1 unit row cannot be restocked from the unit's garage (none in stock there, or no garage assigned).",
    ],
    columns: ['Status', 'Location type', 'Location', 'Item', 'Quantity', 'Minimum', 'Restock from', 'Available in garage'],
    rows: [
      ['critical', 'unit', 'Beach House', 'Towel', 0, 2, 'Main Storage', 9],
      ['critical', 'unit', 'Beach House', 'Sheet', 0, 1, 'Main Storage', 0],
      ['critical', 'unit', 'Beach House', 'Candle', 0, 0, 'Main Storage', 6],
      ['low', 'unit', 'Cabin', 'Pods', 2, 5, 'Main Storage', 30],
      ['low', 'unit', 'Beach House', 'Dish Soap', 1, 1, 'Main Storage', 3],
      ['low', 'unit', 'Cabin', 'Towel', 2, 2, 'Main Storage', 9],
      ['low', 'unit', 'Loft', 'Towel', 2, 2, 'Main Storage', 9],
      ['low', 'garage', 'North Depot', 'Towel', 2, 2, '', ''],
    ],
  },
  usage: {
    facts: [
      'Usage is what was consumed at units plus stock found missing in unit counts; transfers between locations are not usage.',
      `In ${WEEK}: 11 items used at 4 units, costing $46.00; 1.57 used per day on average.`,
      // Loft 5 towels and Cabin 1 towel and 2 pods over 3 stays: 8 / 3; ($32.50 + $6.50 + $0.20) / 3.
      "Stays that departed in the range (by the company's calendar days, before today): 3 stays at 2 units, which used 2.67 per stay on average, costing $13.07 a stay.",
      'Busiest day: 2026-06-29 (UTC), 4 used, $0.50.',
      'By unit: Loft 5 used ($32.50), Cabin 3 used ($6.70), Villa 1 used ($6.50), Beach House 2 used ($0.30).',
    ],
    columns: ['Unit', 'Item', 'Used', 'Cost ($)', 'Average per day', 'Busiest day (UTC)', 'Used that day', 'Stays', 'Used per stay'],
    rows: [
      ['Loft', 'Towel', 5, '32.50', '0.71', '2026-06-28', 3, 2, '2.50'],
      ['Cabin', 'Towel', 1, '6.50', '0.14', '2026-06-27', 1, 1, '1.00'],
      ['Villa', 'Towel', 1, '6.50', '0.14', '2026-06-26', 1, 0, ''],
      ['Cabin', 'Pods', 2, '0.20', '0.29', '2026-06-29', 2, 1, '2.00'],
      ['Beach House', 'Dish Soap', 1, '0.20', '0.14', '2026-06-29', 1, 0, ''],
      ['Beach House', 'Pods', 1, '0.10', '0.14', '2026-06-29', 1, 0, ''],
    ],
  },
  reorder: {
    facts: [
      "Rule: order quantity = 14 days of average daily use (rounded up) plus what the garage's units need to reach their items' minimums, minus the garage's stock on hand, never below 0.",
      `Average daily use = what the garage's units used in ${WEEK} ÷ 7; days of cover = stock on hand ÷ average daily use.`,
      '2 garage items to order, 6 pieces in total.',
      // Towel: 14 × 6/7 = 12, + 2 short at the Beach House, - 9 on hand = 5.
      'Order 5 Towel for Main Storage (9 on hand, units short 2, 0.86 used per day, 10.5 days of cover), 1 Sheet for Main Storage (0 on hand, units short 1, no use in the range).',
    ],
    columns: ['Garage', 'Item', 'On hand', "Units' shortfall", 'Average daily use', 'Days of cover', 'Order quantity'],
    rows: [
      ['Main Storage', 'Towel', 9, 2, '0.86', '10.5', 5],
      ['Main Storage', 'Sheet', 0, 1, '0.00', '', 1],
      ['North Depot', 'Towel', 2, 0, '0.14', '14.0', 0],
      ['Main Storage', 'Dish Soap', 3, 0, '0.14', '21.0', 0],
      ['Main Storage', 'Pods', 30, 3, '0.43', '70.0', 0],
      ['Main Storage', 'Candle', 6, 0, '0.00', '', 0],
      ['North Depot', 'Sheet', 5, 0, '0.00', '', 0],
    ],
  },
  expenses: {
    facts: [
      "Cost = quantity used × the item's cost when it was used; usage excludes transfers between locations.",
      `Total supply cost in ${WEEK}: $46.00 for 11 items used.`,
      'By category: Linen $45.50 (98.9%), Kitchen $0.50 (1.1%).',
      'By item: Towel $45.50 (98.9%), Pods $0.30 (0.7%), Dish Soap $0.20 (0.4%).',
      // $0.10 + $0.20 at the Beach House is exactly $0.30.
      'By unit: Loft $32.50 (70.7%), Cabin $6.70 (14.6%), Villa $6.50 (14.1%), Beach House $0.30 (0.7%).',
    ],
    columns: ['Grouping', 'Name', 'Used', 'Cost ($)', 'Share of total (%)'],
    rows: [
      ['Category', 'Linen', 7, '45.50', '98.9'],
      ['Item', 'Towel', 7, '45.50', '98.9'],
      ['Unit', 'Loft', 5, '32.50', '70.7'],
      ['Unit', 'Cabin', 3, '6.70', '14.6'],
      ['Unit', 'Villa', 1, '6.50', '14.1'],
      ['Category', 'Kitchen', 4, '0.50', '1.1'],
      ['Item', 'Pods', 3, '0.30', '0.7'],
      ['Unit', 'Beach House', 2, '0.30', '0.7'],
      ['Item', 'Dish Soap', 1, '0.20', '0.4'],
    ],
  },
  waste: {
    facts: [
      "Rule: a unit's use of an item is far above the median when it is more than 2× the median use of the units that used that item in the range, and at least 3 more.",
      // Towels used: Loft 5, Cabin 1, Villa 1 (median 1). Pods: Cabin 2, Beach House 1 (median 1.5): not far.
      `Use far above the median in ${WEEK}: Loft used 5 Towel (median 1, $32.50).`,
      'Stock lost in counts in the range (2 items, $6.70 at the recorded cost): 1 Towel at Villa ($6.50), 1 Dish Soap at Main Storage ($0.20).',
      'Items in stock with no use in the range (2 items, 13 on hand, $102.00 at current cost): Sheet 7 ($84.00), Candle 6 ($18.00).',
    ],
    columns: ['Finding', 'Location', 'Item', 'Quantity', 'Median use', 'Value ($)'],
    rows: [
      ['Far above median use', 'Loft', 'Towel', 5, '1', '32.50'],
      ['Lost in counts', 'Villa', 'Towel', 1, '', '6.50'],
      ['Lost in counts', 'Main Storage', 'Dish Soap', 1, '', '0.20'],
      ['Unused stock', 'All locations', 'Sheet', 7, '', '84.00'],
      ['Unused stock', 'All locations', 'Candle', 6, '', '18.00'],
    ],
  },
};

const KEY = 'sk-test-assistant-key';

describe.each(backends)('report assistant on %s', (backend) => {
  let t: TestApp;
  let fake: FakeOpenAi;
  let sea: StockTenant;
  let har: StockTenant;
  const ask = (who: StockTenant, body: object) => api(t, who.cookie, 'POST', '/api/reports/assistant', body);

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    fake.delayMs = 3_000;
    t = await createTestApp(backend, {
      env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: fake.url, OPENAI_REPORT_MODEL: 'gpt-test-model', OPENAI_TIMEOUT_MS: '500' },
    });
    sea = await seaside(t);
    har = await harbour(t);
    t.setNow(NOW);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it.each(reportTypes)('%s: exact facts and rows from the ledger', async (type) => {
    expect(await compute(t, sea.tenantId, type)).toEqual(expected[type]);
  });

  it.each(reportTypes)('%s: the reply carries the CSV of those rows', async (type) => {
    fake.mode = 'ok';
    const res = await ask(sea, { type, days: 7, limit: 25 });
    expect(res.statusCode).toBe(200);
    const reply = res.json();
    expect(reply).toMatchObject({ type, records: expected[type].rows.length });
    expect(reply.csv).toBe(toCsv(expected[type].columns, expected[type].rows));
  });

  it('writes CSV as a header row, then one line per record, money with two decimals', async () => {
    const reply = (await ask(sea, { type: 'expenses' })).json();
    expect(reply.csv.split('\n').slice(0, 3)).toEqual([
      'Grouping,Name,Used,Cost ($),Share of total (%)',
      'Category,Linen,7,45.50,98.9',
      'Item,Towel,7,45.50,98.9',
    ]);
    expect(reply.csv).toContain('\nUnit,Beach House,2,0.30,0.7\n');
  });

  it.each(reportTypes)('%s: the record limit cuts the rows, never the facts', async (type) => {
    const cut = await compute(t, sea.tenantId, type, 7, 1);
    expect(cut.rows).toEqual(expected[type].rows.slice(0, 1));
    expect(cut.facts).toEqual(expected[type].facts);
  });

  it('covers the chosen number of days', async () => {
    const quarter = await compute(t, sea.tenantId, 'usage', 90);
    expect(quarter.facts.slice(1, 4)).toEqual([
      // The 5 pods of May 1st come in.
      'In the last 90 days (2026-04-01 12:00 to 2026-06-30 12:00 UTC): 16 items used at 4 units, costing $46.50; 0.18 used per day on average.',
      // The Cabin's stay of the 22nd comes in: 8 used over 4 stays; $39.20 / 4.
      "Stays that departed in the range (by the company's calendar days, before today): 4 stays at 2 units, which used 2.00 per stay on average, costing $9.80 a stay.",
      'Busiest day: 2026-05-01 (UTC), 5 used, $0.50.',
    ]);
    const month = await compute(t, sea.tenantId, 'reorder', 30);
    // 6 towels in 30 days: 0.20 a day; 9 on hand last 45 days; 14 × 0.2 = 2.8 -> 3, + 2 short - 9 < 0.
    expect(month.rows[0]).toEqual(['Main Storage', 'Sheet', 0, 1, '0.00', '', 1]);
    expect(month.rows).toContainEqual(['Main Storage', 'Towel', 9, 2, '0.20', '45.0', 0]);
  });

  it("sends the facts to the model and returns its narrative", async () => {
    fake.mode = 'ok';
    fake.requests.length = 0;
    const res = await ask(sea, { type: 'summary', days: 7, limit: 50 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ type: 'summary', text: fake.reply, ai_narrative: true, records: 5 });
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request!.body.model).toBe('gpt-test-model');
    expect(request!.body.messages).toEqual([
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: narrativePrompt(reportTypeLabels.summary, expected.summary) },
    ]);
    const user = request!.body.messages[1]!.content;
    expect(user).toContain('Report type: Supply Overview & Insights');
    for (const fact of expected.summary.facts) expect(user).toContain(`- ${fact}`);
    expect(user).toContain('$46.00');
    expect(user).toContain('Towel,Linen,11,7,2,1,7,45.50');
  });

  it('falls back to the computed summary when the model fails, times out or answers nothing; the CSV is the same', async () => {
    const replies = [];
    for (const mode of ['ok', 'error', 'slow', 'empty'] as const) {
      fake.mode = mode;
      const started = Date.now();
      const res = await ask(sea, { type: 'waste', days: 7, limit: 50 });
      expect(res.statusCode).toBe(200);
      if (mode === 'slow') expect(Date.now() - started).toBeLessThan(2_500);
      replies.push(res.json());
    }
    const [ok, ...failed] = replies;
    expect(ok.ai_narrative).toBe(true);
    const fallback = plainSummary('Waste & Optimization Report', expected.waste.facts, UNAVAILABLE_NOTE);
    expect(fallback.split('\n').slice(0, 3)).toEqual(['## Waste & Optimization Report', '', `- ${expected.waste.facts[0]}`]);
    for (const reply of failed) {
      expect(reply).toMatchObject({ ai_narrative: false, text: fallback });
      expect(reply.text.endsWith('_AI narrative unavailable: showing the computed summary._')).toBe(true);
      expect(reply.csv).toBe(ok.csv);
    }
  });

  it("never shows another tenant's rows", async () => {
    const theirs = /Champagne|Robe|\$100\.00|\$120\.00/;
    const ours = /Towel|Sheet|Pods|Dish Soap|Candle|Loft|Cabin|Villa|North Depot/;
    for (const type of reportTypes) {
      expect(JSON.stringify(await compute(t, sea.tenantId, type))).not.toMatch(theirs);
      const other = await compute(t, har.tenantId, type);
      expect(JSON.stringify(other)).not.toMatch(ours);
    }
    const summary = await compute(t, har.tenantId, 'summary');
    expect(summary.facts.slice(0, 4)).toEqual([
      '2 items tracked across 1 garage and 1 unit.',
      'Stock on hand now: 2 in garages and 6 in units.',
      "Unit stock rows now: 1 critical (quantity 0) and 0 low (at or below the item's minimum).",
      `In ${WEEK}: 4 items used, costing $100.00.`,
    ]);
    fake.mode = 'error';
    const reply = (await ask(har, { type: 'waste' })).json();
    expect(reply.text).toContain('3 Robe at Main Storage ($120.00)');
    expect(reply.csv).not.toMatch(ours);
  });
});

describe.each(backends)('report assistant narratives per minute on %s', (backend) => {
  it('past the limit answers with the computed summary without calling the model; each company has its own', async () => {
    const fake = await startFakeOpenAi();
    const t = await createTestApp(backend, { env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: fake.url, OPENAI_REPORTS_PER_MINUTE: '2' } });
    try {
      const [first, second] = [await stockTenant(t, 'quota-a@example.com'), await stockTenant(t, 'quota-b@example.com')];
      const ask = async (who: StockTenant) => {
        const res = await api(t, who.cookie, 'POST', '/api/reports/assistant', { type: 'summary' });
        expect(res.statusCode).toBe(200);
        return res.json<{ text: string; csv: string; ai_narrative: boolean }>();
      };
      const replies = [await ask(first), await ask(first), await ask(first)];
      expect(replies.map((r) => r.ai_narrative)).toEqual([true, true, false]);
      expect(fake.requests).toHaveLength(2);
      expect(replies[2]!.text.endsWith(limitNote(2))).toBe(true);
      expect(replies[2]!.text).toContain('## Supply Overview & Insights');
      expect(replies[2]!.csv).toBe(replies[0]!.csv);
      expect((await ask(second)).ai_narrative).toBe(true);
      expect(fake.requests).toHaveLength(3);
    } finally {
      await t.close();
      await fake.close();
    }
  });
});

describe.each(backends)('report assistant access on %s', (backend) => {
  let t: TestApp;
  let s: StockTenant;
  const ask = (cookie: string) => api(t, cookie, 'POST', '/api/reports/assistant', { type: 'summary', days: 7, limit: 25 });

  beforeAll(async () => {
    t = await createTestApp(backend);
    s = await stockTenant(t, 'gate@example.com');
    t.setNow(NOW);
  });
  afterAll(() => t.close());

  it('answers the computed summary when no model is configured', async () => {
    const res = await ask(s.cookie);
    expect(res.statusCode).toBe(200);
    const reply = res.json();
    expect(reply.ai_narrative).toBe(false);
    expect(reply.text.startsWith('## Supply Overview & Insights\n\n- 2 items tracked across 1 garage and 1 unit.')).toBe(true);
    expect(reply.text.endsWith(`\n\n${NO_MODEL_NOTE}`)).toBe(true);
    expect(reply.csv.split('\n')[0]).toBe('Item,Category,In garages,In units,Units low,Units critical,Used,Cost ($)');
  });

  it('answers every report type for a company that has no stock yet', async () => {
    const cookie = await signUpAndSignIn(t, 'fresh@example.com');
    expect((await api(t, cookie, 'POST', '/api/onboarding/company', { company_name: 'Fresh Start' })).statusCode).toBe(201);
    for (const type of reportTypes) {
      const res = await api(t, cookie, 'POST', '/api/reports/assistant', { type });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ type, records: 0, ai_narrative: false });
    }
    const summary = (await api(t, cookie, 'POST', '/api/reports/assistant', { type: 'summary' })).json();
    expect(summary.text).toContain('- 0 items tracked across 0 garages and 0 units.');
    expect(summary.csv).toBe('Item,Category,In garages,In units,Units low,Units critical,Used,Cost ($)\n');
  });

  it('validates the body and needs a session', async () => {
    const bad = await api(t, s.cookie, 'POST', '/api/reports/assistant', { type: 'summary', days: 8 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION');
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/reports/assistant', payload: { type: 'summary' } });
    expect(anonymous.statusCode).toBe(401);
  });

  it('names units without a garage in alerts and leaves them out of restock planning', async () => {
    await api(t, s.cookie, 'PATCH', `/api/units/${s.unitId}`, { name: 'Beach House', address: '2 Shore Lane', garage_id: null });
    const critical = await compute(t, s.tenantId, 'critical');
    expect(critical.facts.slice(2)).toEqual([
      // The larger shortfall below the minimum first.
      'Critical: Coffee Pods at Beach House has 0 (minimum 10); the unit has no garage to restock from.',
      'Critical: Bath Towel at Beach House has 0 (minimum 3); the unit has no garage to restock from.',
      "2 unit rows cannot be restocked from the unit's garage (none in stock there, or no garage assigned).",
    ]);
    expect(critical.rows[0]).toEqual(['critical', 'unit', 'Beach House', 'Coffee Pods', 0, 10, '', '']);
    const reorder = await compute(t, s.tenantId, 'reorder');
    expect(reorder.rows).toEqual([]);
    expect(reorder.facts.slice(2)).toEqual([
      'Nothing needs ordering: every garage covers its units.',
      '1 unit has no garage; what they use and need is left out of this plan.',
    ]);
  });

  it('is the ai_reports feature: refused on the Starter plan', async () => {
    await setTenantPlan(t.database.db, s.tenantId, 'Starter');
    const res = await ask(s.cookie);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('FORBIDDEN');
    await setTenantPlan(t.database.db, s.tenantId, 'Professional');
    expect((await ask(s.cookie)).statusCode).toBe(200);
  });

  it('is behind the expired-trial gate', async () => {
    await setTenantPlan(t.database.db, s.tenantId, null);
    await setTrialEnd(t.database.db, s.tenantId, new Date('2026-06-01T00:00:00Z'));
    const res = await ask(s.cookie);
    expect(res.statusCode).toBe(402);
    expect(res.json().error.code).toBe('SUBSCRIPTION_REQUIRED');
  });
});

describe('assistant configuration', () => {
  it('defaults to the SDK base URL, gpt-4o, 30 s and 20 narratives a minute, and makes no AI calls without a key', () => {
    const { openai } = loadConfig({});
    expect(openai).toEqual({ apiKey: undefined, baseUrl: 'https://api.openai.com/v1', reportModel: 'gpt-4o', timeoutMs: 30_000, reportsPerMinute: 20, scanModel: 'gpt-4o-mini', scansPerMinute: 10 });
    expect(createAi(openai)).toBeNull();
    expect(createAi({ ...openai, apiKey: 'sk-x' })).not.toBeNull();
  });

  it('names bad OPENAI variables', () => {
    expect(() => loadConfig({ OPENAI_REPORTS_PER_MINUTE: '0' })).toThrow(/OPENAI_REPORTS_PER_MINUTE:/);
    expect(() => loadConfig({ OPENAI_BASE_URL: 'not a url', OPENAI_TIMEOUT_MS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ OPENAI_BASE_URL: 'not a url', OPENAI_TIMEOUT_MS: '0' })).toThrow(/OPENAI_BASE_URL:[\s\S]*OPENAI_TIMEOUT_MS:/);
  });
});
