/**
 * The stock status rule has one definition in two languages: `stockStatus` (TypeScript, common/)
 * and `stockStatusSql` (SQL, stock/rules.ts). They must agree on every boundary, and the garage
 * chart's buckets must fall where the product says.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRITICAL_AT_OR_BELOW, stockStatus } from '../../../common/contracts/stock';
import { queryRows, type Database } from '../../db/client';
import { openTestDatabase } from '../../test/harness';
import { GARAGE_LOW_ABOVE, GARAGE_SUFFICIENT_ABOVE, garageBucketSql, stockStatusSql } from './rules';

describe('stock rules', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
  });
  afterAll(() => database.close());

  it('derive the same status in TypeScript and in SQL at every boundary', async () => {
    const cases: [number, number][] = [];
    for (const threshold of [0, 1, 5, 100]) {
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

  it('put garage rows in the chart buckets: more than 20 sufficient, more than 10 low, else critical', async () => {
    expect([GARAGE_SUFFICIENT_ABOVE, GARAGE_LOW_ABOVE]).toEqual([20, 10]);
    const expected: [number, string][] = [[0, 'critical'], [10, 'critical'], [11, 'low'], [20, 'low'], [21, 'sufficient']];
    for (const [quantity, bucket] of expected) {
      const [row] = await queryRows<{ bucket: string }>(database.db, sql`select ${garageBucketSql(sql`${quantity}::int`)} as bucket`);
      expect(row!.bucket, `quantity ${quantity}`).toBe(bucket);
    }
  });
});
