/**
 * The company's service level (docs/forecast.md "Spread and service level"): what its pick lists
 * bring for, percent, one of SERVICE_LEVELS (common/contracts/forecast.ts), 95 until an admin
 * chooses another. A stored projection remembers the level its pick list was computed at
 * (projections.ts), so a change needs no change rows: every projection is stale at once.
 */
import { eq, sql } from 'drizzle-orm';
import type { ServiceLevelAnswer } from '../../../common/contracts/forecast';
import { queryRows, type Db, type Tx } from '../../db/client';
import { tenants } from '../../db/schema/auth';
import { withTenant } from '../../db/tenant-tx';
import type { TenantIdentity } from '../auth/identity';

/** The company's service level, percent, inside the caller's tenant transaction. */
export async function companyServiceLevel(tx: Tx, tenantId: string): Promise<number> {
  const [row] = await queryRows<{ service_level: number }>(tx, sql`select service_level from tenants where id = ${tenantId}`);
  return Number(row!.service_level);
}

/**
 * Sets the company's service level to `level` (percent; the route's contract admits only
 * SERVICE_LEVELS, and the column's check refuses anything outside 50–99).
 */
export async function setServiceLevel(db: Db, who: TenantIdentity, level: number): Promise<ServiceLevelAnswer> {
  await withTenant(db, who.tenantId, (tx) => tx.update(tenants).set({ serviceLevel: level }).where(eq(tenants.id, who.tenantId)));
  return { service_level: level };
}
