/**
 * Stock status per location for the Reports charts (docs/product.md "Screens: Reports"): unit
 * rows by their derived status, garage rows by the chart's fixed buckets (stock/rules.ts).
 */
import { sql } from 'drizzle-orm';
import type { StatusReport } from '../../../common/contracts/reports';
import { queryRows, type Tx } from '../../db/client';
import { garageBucketSql, stockStatusSql } from '../stock/rules';

type Bar = { id: string; name: string; sufficient: number; low: number; critical: number };

/** Reads the status bars of every unit and garage of `tenantId`, ordered by name. */
export async function getStatusReport(tx: Tx, tenantId: string): Promise<StatusReport> {
  const unitStatus = stockStatusSql(sql`s.quantity`, sql`i.minimum_threshold`);
  const garageBucket = garageBucketSql(sql`s.quantity`);
  const units = await queryRows<Bar>(
    tx,
    sql`
    select u.id, u.name,
      count(s.id) filter (where ${unitStatus} = 'sufficient')::int as sufficient,
      count(s.id) filter (where ${unitStatus} = 'low')::int as low,
      count(s.id) filter (where ${unitStatus} = 'critical')::int as critical
    from units u
    left join unit_inventory s on s.tenant_id = u.tenant_id and s.unit_id = u.id
    left join items i on i.tenant_id = s.tenant_id and i.id = s.item_id
    where u.tenant_id = ${tenantId}
    group by u.id, u.name order by u.name, u.id`,
  );
  const garages = await queryRows<Bar>(
    tx,
    sql`
    select g.id, g.name,
      count(s.id) filter (where ${garageBucket} = 'sufficient')::int as sufficient,
      count(s.id) filter (where ${garageBucket} = 'low')::int as low,
      count(s.id) filter (where ${garageBucket} = 'critical')::int as critical
    from garages g
    left join garage_inventory s on s.tenant_id = g.tenant_id and s.garage_id = g.id
    where g.tenant_id = ${tenantId}
    group by g.id, g.name order by g.name, g.id`,
  );
  const num = (b: Bar): Bar => ({ ...b, sufficient: Number(b.sufficient), low: Number(b.low), critical: Number(b.critical) });
  return { units: units.map(num), garages: garages.map(num) };
}
