/**
 * The stock rules each have one definition, in TypeScript (common/contracts/stock.ts) and, where SQL
 * needs them, in SQL (stock/rules.ts): the status of a stock row (`stockStatus`, `stockStatusSql`)
 * and below minimum (`isBelowMinimum`, `belowMinimumSql`) must agree on every boundary, on both
 * databases; the garage chart's buckets must fall where the product says; and what to order for a
 * garage (`orderQuantity`) follows docs/product.md "Pick lists".
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRITICAL_AT_OR_BELOW, isBelowMinimum, orderQuantity, stockStatus } from '../../../common/contracts/stock';
import { queryRows, type Database } from '../../db/client';
import { backends, openTestDatabase } from '../../test/harness';
import { belowMinimumSql, GARAGE_LOW_ABOVE, GARAGE_SUFFICIENT_ABOVE, garageBucketSql, stockStatusSql } from './rules';

const MINIMUMS = [0, 1, 5, 100];

describe.each(backends)('stock rules (%s)', (backend) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(backend);
  });
  afterAll(() => database.close());

  it('derive the same status in TypeScript and in SQL at every boundary', async () => {
    const cases: [number, number][] = [];
    for (const threshold of MINIMUMS) {
      for (const quantity of [CRITICAL_AT_OR_BELOW - 1, CRITICAL_AT_OR_BELOW, CRITICAL_AT_OR_BELOW + 1, threshold - 1, threshold, threshold + 1]) {
        cases.push([quantity, threshold]);
      }
    }
    for (const [quantity, threshold] of cases) {
      const [row] = await queryRows<{ status: string }>(
        database.db,
        sql`select ${stockStatusSql(sql`${quantity}::int`, sql`${threshold}::int`)} as status`,
      );
      expect(row!.status, `quantity ${quantity}, threshold ${threshold}`).toBe(stockStatus(quantity, threshold));
    }
    expect(stockStatus(0, 5)).toBe('critical');
    expect(stockStatus(5, 5)).toBe('low');
    expect(stockStatus(6, 5)).toBe('sufficient');
  });

  it('tell below minimum the same in TypeScript and in SQL at every boundary, for whole and projected stock', async () => {
    const cases: [number, number][] = [];
    for (const minimum of MINIMUMS) {
      for (const quantity of [CRITICAL_AT_OR_BELOW - 1, CRITICAL_AT_OR_BELOW, minimum - 1, minimum, minimum + 1]) cases.push([quantity, minimum]);
    }
    // Whole stock columns: integer arguments, as the stock rows hold them.
    for (const [quantity, minimum] of cases) {
      const [row] = await queryRows<{ below: boolean }>(database.db, sql`select ${belowMinimumSql(sql`${quantity}::int`, sql`${minimum}::int`)} as below`);
      expect(row!.below, `quantity ${quantity}, minimum ${minimum}`).toBe(isBelowMinimum(quantity, minimum));
    }
    // Projected stock (the forecast's): fractions just either side of the minimum, in double precision.
    for (const minimum of MINIMUMS) {
      for (const quantity of [minimum - 0.5, minimum - 1e-9, minimum + 1e-9, minimum + 0.5]) {
        const [row] = await queryRows<{ below: boolean }>(
          database.db,
          sql`select ${belowMinimumSql(sql`${quantity}::float8`, sql`${minimum}::int`)} as below`,
        );
        expect(row!.below, `quantity ${quantity}, minimum ${minimum}`).toBe(isBelowMinimum(quantity, minimum));
      }
    }
    expect([isBelowMinimum(4, 5), isBelowMinimum(5, 5), isBelowMinimum(6, 5), isBelowMinimum(0, 0)]).toEqual([true, false, false, false]);
    // Narrower than low: a row at its minimum is low but not below it.
    expect([stockStatus(5, 5), isBelowMinimum(5, 5)]).toEqual(['low', false]);
  });

  it('inline below minimum into the calling query, as the status functions are', async () => {
    const plan = await queryRows<Record<string, string>>(
      database.db,
      sql`explain (verbose, costs off) select item_id from unit_inventory where ${belowMinimumSql(sql`quantity`, sql`item_threshold`)}`,
    );
    const text = plan.map((row) => Object.values(row).join(' ')).join('\n');
    expect(text).toMatch(/quantity\)::double precision < \([a-z_.]*item_threshold\)::double precision/);
    expect(text).not.toContain('stock_below_minimum');
  });

  it('put garage rows in the chart buckets: more than 20 sufficient, more than 10 low, else critical', async () => {
    expect([GARAGE_SUFFICIENT_ABOVE, GARAGE_LOW_ABOVE]).toEqual([20, 10]);
    const expected: [number, string][] = [[0, 'critical'], [10, 'critical'], [11, 'low'], [20, 'low'], [21, 'sufficient']];
    for (const [quantity, bucket] of expected) {
      const [row] = await queryRows<{ bucket: string }>(database.db, sql`select ${garageBucketSql(sql`${quantity}::int`)} as bucket`);
      expect(row!.bucket, `quantity ${quantity}`).toBe(bucket);
    }
  });
});

describe('what to order for a garage', () => {
  it('covers what the properties need and keeps the minimum, less what the garage holds, never below 0', () => {
    // docs/product.md "Pick lists": needed + the item's minimum threshold − the garage's stock, never below 0.
    expect(orderQuantity({ needed: 26, minimum: 10, onHand: 10 })).toBe(26);
    expect(orderQuantity({ needed: 3, minimum: 3, onHand: 48 })).toBe(0);
    // At the boundary: stock equal to needed + minimum orders nothing, one less orders one.
    expect(orderQuantity({ needed: 7, minimum: 5, onHand: 12 })).toBe(0);
    expect(orderQuantity({ needed: 7, minimum: 5, onHand: 11 })).toBe(1);
    // Nothing needed still tops the garage up to its minimum; an empty garage orders everything.
    expect(orderQuantity({ needed: 0, minimum: 5, onHand: 2 })).toBe(3);
    expect(orderQuantity({ needed: 0, minimum: 5, onHand: 5 })).toBe(0);
    expect(orderQuantity({ needed: 4, minimum: 0, onHand: 0 })).toBe(4);
    expect(orderQuantity({ needed: 0, minimum: 0, onHand: 0 })).toBe(0);
  });
});
