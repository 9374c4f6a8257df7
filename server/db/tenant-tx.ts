/**
 * Tenant transactions: the only way services touch tenant data. Each runs as the non-superuser
 * role `inventory_app` with `app.tenant_id` set, so row-level security filters every row even if
 * a query forgets its tenant filter (DESIGN.md §2, migration 0001_rls.sql).
 */
import { sql } from 'drizzle-orm';
import type { Db, Tx } from './client';

export const APP_ROLE = 'inventory_app';

/**
 * Runs `fn` in one transaction scoped to `tenantId`; commits when it resolves, rolls back when it throws.
 * The tenant id must come from the session, never from request input (DESIGN.md §3).
 */
export function withTenant<T>(db: Db, tenantId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await enterTenantScope(tx, tenantId);
    return fn(tx);
  });
}

/** Switches the open transaction `tx` to the application role scoped to `tenantId`, until it ends. */
export async function enterTenantScope(tx: Tx, tenantId: string): Promise<void> {
  await tx.execute(sql`select set_config('app.tenant_id', ${tenantId}, true), set_config('role', ${APP_ROLE}, true)`);
}
