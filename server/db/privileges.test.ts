/**
 * What the application role `inventory_app` may touch, table by table (decision 013): every
 * relation of the public schema must have a declared decision, and its rights and row-level
 * security must match it. A table nobody decided about fails the test.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import type { MailMessage } from '../integrations/mail';
import { findTenant } from '../modules/billing/operator';
import { api, APP_URL, backends, createTestApp, onboard, signUpAndSignIn, TEST_APP_SECRET, type TestApp } from '../test/harness';
import { databaseUrlFor } from './pg-url';
import { openPostgres, queryRows } from './client';
import { runMigrations } from './migrate';
import { APP_ROLE, withTenant } from './tenant-tx';

/**
 * - tenant: read and written by tenant transactions; RLS enabled and forced; every policy that
 *   applies to the application role compares with `app.tenant_id`.
 * - reference: global rows every tenant reads (plans); read-only.
 * - none: no rights at all (better-auth's account tables, webhook bookkeeping, rate limits).
 */
type Decision = 'tenant' | 'reference' | 'none';

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
  unit_alert_counts: 'tenant',
  subscriptions: 'tenant',
  provider_credentials: 'tenant',
  scans: 'tenant',
  reservations: 'tenant',
  provider_webhook_events: 'tenant',
  calendar_links: 'tenant',
  idempotency_keys: 'tenant',
  api_keys: 'tenant',
  webhook_endpoints: 'tenant',
  webhook_events: 'tenant',
  webhook_deliveries: 'tenant',
  usage_rates: 'tenant',
  item_usage_rates: 'tenant',
  daily_email_sends: 'tenant',
  unit_projections: 'tenant',
  forecast_changes: 'tenant',
  subscription_tiers: 'reference',
  users: 'none',
  sessions: 'none',
  accounts: 'none',
  verifications: 'none',
  processed_webhook_events: 'none',
  rate_limits: 'none',
};

const PRIVILEGES = ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER'] as const;

const expectedRights: Record<Decision, string[]> = {
  tenant: ['SELECT', 'INSERT', 'UPDATE', 'DELETE'],
  reference: ['SELECT'],
  none: [],
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
  qual: string | null;
  with_check: string | null;
  /** True when the policy names the application role, a role it belongs to, or PUBLIC. */
  applies: boolean;
}

describe.each(backends)('application role rights on %s', (backend) => {
  let t: TestApp;
  let cookieA: string;
  let tenantA: string;
  let userB: string;
  beforeAll(async () => {
    t = await createTestApp(backend);
    cookieA = await signUpAndSignIn(t, 'a@example.com');
    const cookieB = await signUpAndSignIn(t, 'b@example.com');
    tenantA = await onboard(t, cookieA, { company: 'A Rentals' });
    await onboard(t, cookieB, { company: 'B Rentals' });
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
            barrier: r.kind === 'v' ? false : undefined,
          },
        ];
      }),
    );
    expect(actual).toEqual(expected);
  });

  it('every policy that applies to the application role is the tenant filter', async () => {
    const policies = await queryRows<Policy>(
      t.database.db,
      sql`select tablename as table, policyname as name, qual, with_check,
            exists (select 1 from unnest(roles) r where r = 'public' or pg_has_role(${APP_ROLE}, r, 'MEMBER')) as applies
          from pg_policies where schemaname = 'public'`,
    );
    const tenantFilter = (table: string) =>
      `(${table === 'tenants' ? 'id' : 'tenant_id'} = (NULLIF(current_setting('app.tenant_id'::text, true), ''::text))::uuid)`;
    const applying = policies.filter((p) => p.applies);
    const tenantTables = Object.keys(decisions).filter((name) => decisions[name] === 'tenant');
    expect(tenantTables.filter((table) => !applying.some((p) => p.table === table)), 'tenant tables without a policy for the role').toEqual([]);
    expect(
      applying.filter((p) => p.qual !== tenantFilter(p.table) || p.with_check !== tenantFilter(p.table)).map((p) => `${p.table}.${p.name}`),
      'policies that let the role past its tenant',
    ).toEqual([]);
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

  it("the Users screen names the caller's members only: the people read are those of the tenant's own memberships", async () => {
    const members = (await api(t, cookieA, 'GET', '/api/users')).json().members as { email: string; role: string }[];
    expect(members.map((m) => [m.email, m.role])).toEqual([['a@example.com', 'owner']]);
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
});

/**
 * A login that is not a superuser owns the database, runs the migrations and serves the app: it
 * is filtered by the forced policies like any role, and passes on the identity tables only through
 * its own policy (decision 013). An administrator creates the login and grants it the application
 * role, as a deployment on a managed PostgreSQL would.
 */
describe.runIf(backends.includes('postgres'))('a non-superuser owner login on postgres', () => {
  const login = `inv_owner_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const name = `${inject('pgRunPrefix')}${login}`;
  const adminUrl = () => databaseUrlFor(inject('pgTemplateUrl')!, 'postgres');
  const asAdmin = async (statements: string[]) => {
    const admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
    try {
      for (const statement of statements) await admin.query(statement);
    } finally {
      await admin.end();
    }
  };
  let database: ReturnType<typeof openPostgres>;
  let t: TestApp;
  beforeAll(async () => {
    await asAdmin([
      `create role ${login} login nosuperuser nocreatedb nocreaterole nobypassrls`,
      `grant ${APP_ROLE} to ${login}`,
      `create database ${name} owner ${login}`,
    ]);
    const url = new URL(databaseUrlFor(adminUrl(), name));
    url.username = login;
    database = openPostgres(url.toString(), 4);
    await runMigrations(database);
    const mail: MailMessage[] = [];
    const app = await buildApp({
      config: { ...loadConfig({ APP_URL }), appSecret: TEST_APP_SECRET },
      db: database.db,
      mailer: { send: async (m) => void mail.push(m) },
      authRateLimitPerMinute: 10_000,
    });
    await app.ready();
    t = { app, database, routes: [], mail, setNow: () => {}, close: () => app.close() };
  });
  afterAll(async () => {
    await t?.close();
    await database?.close();
    await asAdmin([`drop database if exists ${name} with (force)`, `drop role if exists ${login}`]);
  });

  it('signs up, onboards and serves the tenant, while the login itself sees no tenant rows', async () => {
    const [role] = await queryRows<{ super: boolean; owner: string }>(
      database.db,
      sql`select rolsuper as super, (select tableowner from pg_tables where schemaname = 'public' and tablename = 'memberships') as owner
          from pg_roles where rolname = current_user`,
    );
    expect(role).toEqual({ super: false, owner: login });

    const cookie = await signUpAndSignIn(t, 'owner@example.com');
    const tenantId = await onboard(t, cookie, { company: 'Owner Rentals' });
    const me = await api(t, cookie, 'GET', '/api/me');
    expect(me.json()).toMatchObject({ tenant: { id: tenantId, name: 'Owner Rentals' }, role: 'owner' });
    expect((await api(t, cookie, 'GET', '/api/dashboard')).json().stats).toMatchObject({ total_units: 1, total_items: 1 });
    expect(await findTenant(database.db, 'Owner Rentals')).toEqual({ id: tenantId, name: 'Owner Rentals' });

    const [outside] = await queryRows<{ garages: number; members: number }>(
      database.db,
      sql`select (select count(*)::int from garages) as garages, (select count(*)::int from memberships) as members`,
    );
    expect(outside).toEqual({ garages: 0, members: 1 });
    // The Users screen: members read in the tenant transaction, their addresses by the login (auth/people.ts).
    expect((await api(t, cookie, 'GET', '/api/users')).json().members).toMatchObject([{ email: 'owner@example.com', role: 'owner' }]);
  });
});
