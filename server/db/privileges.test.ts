/**
 * What the application role `inventory_app` may touch, table by table (decision 013): every
 * relation of the public schema must have a declared decision, and its rights and row-level
 * security must match it. A table nobody decided about fails the test.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, backends, createTestApp, onboard, signUpAndSignIn, type TestApp } from '../test/harness';
import { queryRows } from './client';
import { APP_ROLE, withTenant } from './tenant-tx';

/**
 * - tenant: read and written by tenant transactions; RLS enabled and forced; every policy that
 *   applies to the application role compares with `app.tenant_id`.
 * - reference: global rows every tenant reads (plans); read-only.
 * - none: no rights at all (better-auth's account tables, webhook bookkeeping).
 * - member-directory: the security-barrier view of the current tenant's members; read-only.
 */
type Decision = 'tenant' | 'reference' | 'none' | 'member-directory';

const decisions: Record<string, Decision> = {
  tenants: 'tenant',
  memberships: 'tenant',
  invitations: 'tenant',
  garages: 'tenant',
  units: 'tenant',
  items: 'tenant',
  garage_inventory: 'tenant',
  unit_inventory: 'tenant',
  inventory_logs: 'tenant',
  unit_usage_daily: 'tenant',
  garage_usage_daily: 'tenant',
  garage_usage_weekly: 'tenant',
  subscriptions: 'tenant',
  provider_credentials: 'tenant',
  subscription_tiers: 'reference',
  users: 'none',
  sessions: 'none',
  accounts: 'none',
  verifications: 'none',
  processed_webhook_events: 'none',
  member_directory: 'member-directory',
};

const PRIVILEGES = ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER'] as const;

const expectedRights: Record<Decision, string[]> = {
  tenant: ['SELECT', 'INSERT', 'UPDATE', 'DELETE'],
  reference: ['SELECT'],
  none: [],
  'member-directory': ['SELECT'],
};

/** Resolves with the SQLSTATE `promise` failed with (drizzle wraps the driver's error as its cause). */
async function failureCode(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (err) {
    return ((err as { cause?: { code?: string } }).cause ?? (err as { code?: string })).code;
  }
  return undefined;
}

/** insufficient_privilege: the role has no right on the table. */
const REFUSED = '42501';

interface Relation {
  name: string;
  kind: string;
  rights: string[];
  rls: boolean;
  forced: boolean;
  barrier: boolean;
}

interface Policy {
  table: string;
  name: string;
  roles: string[];
  qual: string | null;
  with_check: string | null;
}

describe.each(backends)('application role rights on %s', (backend) => {
  let t: TestApp;
  let cookieA: string;
  let tenantA: string;
  let tenantB: string;
  let userB: string;
  beforeAll(async () => {
    t = await createTestApp(backend);
    cookieA = await signUpAndSignIn(t, 'a@example.com');
    const cookieB = await signUpAndSignIn(t, 'b@example.com');
    tenantA = await onboard(t, cookieA, { company: 'A Rentals' });
    tenantB = await onboard(t, cookieB, { company: 'B Rentals' });
    userB = (await api(t, cookieB, 'GET', '/api/me')).json().user.id;
  });
  afterAll(() => t.close());

  it('every relation of the public schema has a decision, and its rights and RLS match it', async () => {
    const relations = await queryRows<Relation>(
      t.database.db,
      sql`select c.relname as name, c.relkind::text as kind, c.relrowsecurity as rls, c.relforcerowsecurity as forced,
            coalesce('security_barrier=true' = any(c.reloptions), false) as barrier,
            array(select p from unnest(${sql.raw(`array[${PRIVILEGES.map((p) => `'${p}'`).join(',')}]`)}::text[]) p
                  where has_table_privilege(${APP_ROLE}, c.oid, p)) as rights
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
          order by 1`,
    );
    const undecided = relations.map((r) => r.name).filter((name) => !(name in decisions));
    expect(undecided, 'relations without a decision in this test').toEqual([]);
    expect(Object.keys(decisions).filter((name) => !relations.some((r) => r.name === name)), 'decided but missing').toEqual([]);
    const actual = Object.fromEntries(
      relations.map((r) => [
        r.name,
        { rights: r.rights, rls: r.rls && r.forced ? 'forced' : r.rls ? 'enabled' : 'off', barrier: r.kind === 'v' ? r.barrier : undefined },
      ]),
    );
    const expected = Object.fromEntries(
      relations.map((r) => {
        const decision = decisions[r.name]!;
        return [
          r.name,
          {
            rights: expectedRights[decision],
            rls: decision === 'tenant' ? 'forced' : 'off',
            barrier: decision === 'member-directory' ? true : r.kind === 'v' ? false : undefined,
          },
        ];
      }),
    );
    expect(actual).toEqual(expected);
  });

  it('every policy that applies to the application role keeps it inside app.tenant_id', async () => {
    const policies = await queryRows<Policy>(
      t.database.db,
      sql`select tablename as table, policyname as name, roles::text[] as roles, qual, with_check from pg_policies where schemaname = 'public'`,
    );
    const tenantTables = Object.keys(decisions).filter((name) => decisions[name] === 'tenant');
    const applying = policies.filter((p) => p.roles.includes('public') || p.roles.includes(APP_ROLE));
    expect(tenantTables.filter((table) => !applying.some((p) => p.table === table)), 'tenant tables without a policy for the role').toEqual([]);
    const loose = applying.filter((p) => !p.qual?.includes('app.tenant_id') || !(p.with_check ?? p.qual).includes('app.tenant_id'));
    expect(loose.map((p) => `${p.table}.${p.name}`)).toEqual([]);
  });

  it('no function runs with its owner rights', async () => {
    const definers = await queryRows<{ name: string }>(
      t.database.db,
      sql`select p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public' and p.prosecdef`,
    );
    expect(definers).toEqual([]);
  });

  it.each(['users', 'sessions', 'accounts', 'verifications'])('a tenant transaction cannot read %s', async (table) => {
    expect(await failureCode(withTenant(t.database.db, tenantA, (tx) => tx.execute(sql`select * from ${sql.identifier(table)} limit 1`)))).toBe(REFUSED);
  });

  it("a tenant transaction cannot update another company's session", async () => {
    const before = await queryRows(t.database.db, sql`select id, expires_at, user_agent from sessions where user_id = ${userB} order by id`);
    expect(before.length).toBeGreaterThan(0);
    const update = withTenant(t.database.db, tenantA, (tx) =>
      tx.execute(sql`update sessions set expires_at = now() + interval '1 year', user_agent = 'taken' where user_id = ${userB}`),
    );
    expect(await failureCode(update)).toBe(REFUSED);
    expect(await queryRows(t.database.db, sql`select id, expires_at, user_agent from sessions where user_id = ${userB} order by id`)).toEqual(before);
  });

  it('the member directory lists the current tenant members only, and nothing without a tenant', async () => {
    const list = (tenant: string) => withTenant(t.database.db, tenant, (tx) => queryRows(tx, sql`select email, role from member_directory`));
    const own = await list(tenantA);
    const other = await list(tenantB);
    expect(own).toEqual([{ email: 'a@example.com', role: 'owner' }]);
    expect(other).toEqual([{ email: 'b@example.com', role: 'owner' }]);
    const unscoped = await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local role inventory_app`);
      return queryRows(tx, sql`select email from member_directory`);
    });
    expect(unscoped).toEqual([]);
  });
});
