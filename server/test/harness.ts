/**
 * Test harness for API integration tests through `app.inject` (CONTRIBUTING.md): a migrated
 * database per test file (PGlite always, PostgreSQL too when DATABASE_URL is set), a mail sink that
 * keeps every message, a clock the test can move, and helpers that walk a user through sign-up,
 * email confirmation, sign-in and onboarding.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyBaseLogger, FastifyInstance, RouteOptions } from 'fastify';
import { inject } from 'vitest';
import type { RouteAccess } from '../access';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { openPostgres, wrapPglite, type Database } from '../db/client';
import type { MailMessage } from '../integrations/mail';
import { openIdentityCache, type IdentityCache } from '../modules/auth/identity-cache';
import { createCitusDatabase, dropCitusDatabase } from './citus';
import { databaseUrlFor, withClient } from '../db/pg-url';

export type Backend = 'pglite' | 'postgres';

/**
 * The backends this run covers: PGlite always, PostgreSQL when DATABASE_URL is set; in the Citus
 * suite only 'postgres', a distributed database on the Citus cluster.
 */
export const backends: Backend[] = inject('citusUrl') ? ['postgres'] : inject('pgTemplateUrl') ? ['pglite', 'postgres'] : ['pglite'];

/** Opens a fresh migrated database of `backend`. */
export async function openTestDatabase(backend: Backend): Promise<Database> {
  if (backend === 'pglite') {
    const snapshot = new Blob([readFileSync(inject('pgliteSnapshot'))]);
    return wrapPglite(await PGlite.create({ loadDataDir: snapshot }));
  }
  const name = `${inject('pgRunPrefix')}${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const citusUrl = inject('citusUrl');
  if (citusUrl) {
    const database = openPostgres(await createCitusDatabase(citusUrl, name), 20);
    return {
      ...database,
      async close() {
        await database.close();
        await dropCitusDatabase(citusUrl, name);
      },
    };
  }
  const templateUrl = inject('pgTemplateUrl')!;
  const template = new URL(templateUrl).pathname.slice(1);
  const adminUrl = databaseUrlFor(templateUrl, 'postgres');
  await withClient(adminUrl, (admin) => admin.query(`create database ${name} template ${template}`));
  const database = openPostgres(databaseUrlFor(templateUrl, name), 20);
  return {
    ...database,
    async close() {
      await database.close();
      await withClient(adminUrl, (admin) => admin.query(`drop database if exists ${name} with (force)`));
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  /** The identity cache, when the app was built with one. */
  identities?: IdentityCache;
  /** Every route of the app, one entry per method (HEAD excluded), with its declared access. */
  routes: { method: string; url: string; access: RouteAccess | undefined }[];
  /** Every email the app sent, oldest first. */
  mail: MailMessage[];
  /** Moves the app's clock. */
  setNow(date: Date): void;
  close(): Promise<void>;
}

export const APP_URL = 'http://localhost:3000';
/** The APP_SECRET of test apps (a second app on the same database must share it). */
export const TEST_APP_SECRET = 'test-secret-test-secret-test-secret-0123';
/** The password of test accounts: not on the common-password list sign-up refuses. */
export const TEST_PASSWORD = 'linen-closet-42';

/** Builds the app on a fresh database of `backend`. */
export async function createTestApp(
  backend: Backend,
  opts: {
    authRateLimitPerMinute?: number;
    trialDays?: number;
    env?: Record<string, string>;
    webRoot?: string;
    /** Keep identities in memory, fed by the database's notifications, as `npm start` does. */
    identities?: boolean;
    /** The server log (lib/request-log.ts `createServerLogger` on a stream the test reads); default none. */
    logger?: FastifyBaseLogger;
  } = {},
): Promise<TestApp> {
  const database = await openTestDatabase(backend);
  const identityFeed = opts.identities ? openIdentityCache(database) : undefined;
  const mail: MailMessage[] = [];
  let now: Date | null = null;
  const registered: RouteOptions[] = [];
  const config = loadConfig({ APP_URL, TRIAL_DAYS: String(opts.trialDays ?? 14), ...opts.env });
  const app = await buildApp({
    config: { ...config, appSecret: TEST_APP_SECRET },
    db: database.db,
    mailer: { send: async (m) => void mail.push(m) },
    now: () => now ?? new Date(),
    authRateLimitPerMinute: opts.authRateLimitPerMinute ?? 10_000,
    webRoot: opts.webRoot,
    identities: identityFeed?.cache,
    logger: opts.logger,
    onRoute: (r) => void registered.push(r),
  });
  await app.ready();
  // Read once the app is ready: a scope's own onRoute hook may declare a plugin route's access
  // after this one saw the route (the API document's, app.ts).
  const routes = registered.flatMap((r) =>
    [r.method].flat().filter((method) => method !== 'HEAD').map((method) => ({ method, url: r.url, access: r.config?.access })),
  );
  return {
    app,
    database,
    identities: identityFeed?.cache,
    routes,
    mail,
    setNow: (d) => {
      now = d;
    },
    async close() {
      await app.close();
      await identityFeed?.close();
      await database.close();
    },
  };
}

const jsonHeaders = { 'content-type': 'application/json', origin: APP_URL };

/** Signs up `email`, follows the emailed confirmation link and signs in; returns the cookie header. */
export async function signUpAndSignIn(t: TestApp, email: string, password = TEST_PASSWORD): Promise<string> {
  const signUp = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    headers: jsonHeaders,
    payload: { email, password, name: email, callbackURL: '/login?verified=1' },
  });
  if (signUp.statusCode !== 200) throw new Error(`sign-up failed: ${signUp.body}`);
  await confirmEmail(t, email);
  return signIn(t, email, password);
}

/** Follows the newest confirmation link emailed to `email`. */
export async function confirmEmail(t: TestApp, email: string): Promise<void> {
  const message = t.mail.filter((m) => m.to === email).at(-1);
  const link = message?.text.match(/https?:\/\/\S+/)?.[0];
  if (!link) throw new Error(`no confirmation email for ${email}`);
  const url = new URL(link);
  const res = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
  if (res.statusCode !== 302) throw new Error(`confirmation failed: ${res.statusCode} ${res.body}`);
}

/** Signs in and returns the session cookie header. */
export async function signIn(t: TestApp, email: string, password = TEST_PASSWORD): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', headers: jsonHeaders, payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  return res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}

/** Calls the API as the user of `cookie`. */
export function api(t: TestApp, cookie: string, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: { cookie, ...(payload === undefined ? {} : jsonHeaders) },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** Runs all four onboarding steps for the signed-in user; returns the new tenant id. */
export async function onboard(
  t: TestApp,
  cookie: string,
  data: { company?: string; items?: { name: string; category: string; minimum_threshold?: number; count_cost?: number }[]; units?: { name: string; address: string }[] } = {},
): Promise<string> {
  const company = await api(t, cookie, 'POST', '/api/onboarding/company', { company_name: data.company ?? 'Acme Rentals' });
  if (company.statusCode !== 201) throw new Error(`company step failed: ${company.body}`);
  const steps: [string, unknown][] = [
    ['/api/onboarding/items', { items: data.items ?? [{ name: 'Bath Towel', category: 'Linen', minimum_threshold: 4, count_cost: 6.5 }] }],
    ['/api/onboarding/garage', { name: 'Main Storage', address: '1 Depot Road' }],
    ['/api/onboarding/units', { units: data.units ?? [{ name: 'Beach House', address: '2 Shore Lane' }] }],
  ];
  for (const [url, body] of steps) {
    const res = await api(t, cookie, 'POST', url, body);
    if (res.statusCode !== 200) throw new Error(`${url} failed: ${res.body}`);
  }
  return (company.json() as { tenant_id: string }).tenant_id;
}

/**
 * Calls the API as a script would with the company API key `key` (`Authorization: Bearer`), with
 * no Origin; `cookie` adds a browser session too (the key wins, server/access.ts).
 */
export function apiWithKey(
  app: FastifyInstance,
  key: string,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
  cookie?: string,
) {
  return app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${key}`, ...(cookie ? { cookie } : {}), ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}
