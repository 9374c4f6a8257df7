/**
 * Configuration: the only reader of process.env (docs/ARCHITECTURE.md "The parts"). Every variable
 * is validated at boot; a bad value stops the boot with a message naming every bad variable, and a
 * variable that looks meant for the server but is not one it reads is warned about
 * (`configWarnings`).
 */
import { isIP } from 'node:net';
import { closest, distance } from 'fastest-levenshtein';
import { z } from 'zod';

const optionalUrl = z.preprocess((v) => (v === '' ? undefined : v), z.url().optional());
const optionalText = z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).optional());

/** proxy-addr's names for address ranges, accepted in a TRUST_PROXY list. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** True for an IP address, an address/prefix (CIDR) or one of PROXY_RANGE_NAMES. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

/**
 * TRUST_PROXY: which peers may set the client address through X-Forwarded-For (Fastify's
 * `trustProxy`). `false` (default): none, the client is the socket's peer; `true`: any peer (only
 * when nothing but the proxy can reach the server); otherwise a comma-separated list of proxy
 * addresses, CIDR ranges or loopback/linklocal/uniquelocal. No hop count: Fastify 5 ignores
 * X-Forwarded-For under a bare hop count, since it cannot tell a proxy from a client.
 */
const trustProxy = z.preprocess(
  (v) => (v === undefined || v === '' ? 'false' : v),
  z
    .string()
    .transform((v) => v.trim())
    .transform((v, ctx): boolean | string[] => {
      if (v === 'false') return false;
      if (v === 'true') return true;
      const entries = v.split(',').map((e) => e.trim());
      const bad = entries.filter((e) => !isProxyAddress(e));
      if (bad.length > 0) {
        ctx.addIssue({ code: 'custom', message: `must be false, true or proxy addresses/CIDR ranges (not ${bad.join(', ')})` });
        return z.NEVER;
      }
      return entries;
    }),
);

/** The official SDK's own default, written out so the SDK never reads process.env itself. */
const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** Hostaway's production API. */
const HOSTAWAY_DEFAULT_BASE = 'https://api.hostaway.com';

/** Price-id variables: STRIPE_PRICE_{TIER}_{MONTHLY|YEARLY}, e.g. STRIPE_PRICE_STARTER_YEARLY. */
const PRICE_VAR = /^STRIPE_PRICE_([A-Z0-9_]+)_(MONTHLY|YEARLY)$/;

/** Where the embedded database lives without DATA_DIR, relative to the working directory. */
const DEFAULT_DATA_DIR = './data';
/**
 * Connections of a server's PostgreSQL pool when DATABASE_POOL_SIZE is not set: with the
 * connection the identity feed listens on and the one a boot's schema lock holds, two servers fit
 * a stock PostgreSQL's 100 connections many times over (docs/operations.md "Sizing the connections").
 */
export const DEFAULT_DATABASE_POOL_SIZE = 10;

const schema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    TRUST_PROXY: trustProxy,
    /** Public origin used in email links and as the trusted origin; defaults to http://localhost:PORT. */
    APP_URL: optionalUrl,
    DATA_DIR: z.string().min(1).default(DEFAULT_DATA_DIR),
    /** PostgreSQL connection string; when set, the embedded database is not used. */
    DATABASE_URL: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
        .optional(),
    ),
    /**
     * Connections of this server's PostgreSQL pool (docs/operations.md "Sizing the connections":
     * servers × this, plus a few, must fit the database's max_connections; on Citus, each worker's too).
     */
    DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(500).default(DEFAULT_DATABASE_POOL_SIZE),
    /** Signs sessions and encrypts stored secrets; at least 32 characters. */
    APP_SECRET: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(32).optional()),
    /** SMTP server for outgoing email (smtp:// or smtps://); without it, emails go to the server log. */
    SMTP_URL: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z
        .string()
        .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
        .optional(),
    ),
    MAIL_FROM: z.string().min(3).default('Inventory Manager <no-reply@localhost>'),
    /** Length of a new tenant's trial, in days. */
    TRIAL_DAYS: z.coerce.number().int().min(0).max(3650).default(14),
    /** Stripe secret key; without it billing is off and the product runs on trials and operator-set plans. */
    STRIPE_SECRET_KEY: optionalText,
    /** Signing secret of the Stripe webhook endpoint (whsec_…). */
    STRIPE_WEBHOOK_SECRET: optionalText,
    /** Base URL of the Stripe API (tests point it at a local fake). */
    STRIPE_API_BASE: optionalUrl,
    /**
     * OpenAI API key; without it reports get a computed summary instead of a written narrative and
     * the photo scanner says it is not configured. Never sent to the browser.
     */
    OPENAI_API_KEY: optionalText,
    /** Base URL of an OpenAI-compatible API (tests use a local fake). */
    OPENAI_BASE_URL: z.preprocess((v) => (v === '' ? undefined : v), z.url().default(OPENAI_DEFAULT_BASE_URL)),
    /** Chat model that writes the report narrative. */
    OPENAI_REPORT_MODEL: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).default('gpt-4o')),
    /** Longest wait for one AI call, in milliseconds; past it the request is abandoned (no retries). */
    OPENAI_TIMEOUT_MS: z.coerce.number().int().min(1).max(600_000).default(30_000),
    /** AI report narratives a company may ask for per minute; past it the assistant answers with the computed summary. */
    OPENAI_REPORTS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(20),
    /** Vision model that counts items in a scanned photo (docs/product.md "Screens: AI photo scanner"). */
    OPENAI_SCAN_MODEL: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).default('gpt-4o-mini')),
    /** Photo scans a company may send to the model per minute; past it a scan is refused (429). */
    OPENAI_SCANS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(10),
    /** Largest photo upload, in bytes (default 10 MiB); a larger one is refused (413) unread. */
    SCAN_PHOTO_MAX_BYTES: z.coerce.number().int().min(1024).max(100 * 1024 * 1024).default(10 * 1024 * 1024),
    /** Largest photo, in pixels (width × height, default 50 million), refused from its header before it is decoded. */
    SCAN_MAX_INPUT_PIXELS: z.coerce.number().int().min(1).max(268_402_689).default(50_000_000),
    /** Base URL of the Hostaway API (tests and `npm run fake:hostaway` use a local fake). */
    HOSTAWAY_API_BASE: z.preprocess((v) => (v === '' ? undefined : v), z.url().default(HOSTAWAY_DEFAULT_BASE)),
    /** Longest wait for one Hostaway answer, in milliseconds. */
    HOSTAWAY_TIMEOUT_MS: z.coerce.number().int().min(1).max(120_000).default(15_000),
    /** Listings and reservations asked for per Hostaway page. */
    HOSTAWAY_PAGE_SIZE: z.coerce.number().int().min(1).max(500).default(100),
    /** Minutes between two reservation syncs of a connected company. */
    HOSTAWAY_SYNC_MINUTES: z.coerce.number().int().min(1).max(1440).default(30),
    /** The hour (0–23) of the company's morning, in its time zone, at which the daily email goes out. */
    DAILY_EMAIL_HOUR: z.coerce.number().int().min(0).max(23).default(7),
    /** Minutes between two refreshes of a property's calendar link (docs/product.md "Stays"). */
    CALENDAR_REFRESH_MINUTES: z.coerce.number().int().min(1).max(1440).default(60),
    /** Longest wait for a calendar link's whole answer, redirects included, in milliseconds. */
    CALENDAR_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    /** Largest calendar read from a link, in bytes (default 2 MB); a larger one is refused while it streams. */
    CALENDAR_MAX_BYTES: z.coerce.number().int().min(1024).max(50 * 1024 * 1024).default(2 * 1024 * 1024),
    /** Requests one API key may make per minute, all servers together; past it a request answers 429 (docs/product.md "API keys"). */
    API_KEY_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(120),
    /** For tests only: calendar links may point at loopback addresses (never any other private range). */
    CALENDAR_ALLOW_LOOPBACK: z.enum(['true', 'false']).default('false'),
    /** Longest wait for one webhook delivery attempt, in milliseconds (docs/decisions/050-webhooks.md). */
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    /** Seconds between two looks for due webhook deliveries. */
    WEBHOOK_POLL_SECONDS: z.coerce.number().int().min(1).max(300).default(5),
    /** For tests only: webhook endpoints may point at loopback addresses (never any other private range). */
    WEBHOOK_ALLOW_LOOPBACK: z.enum(['true', 'false']).default('false'),
  });

/** Validated configuration with defaults applied. `appSecret` may be absent until the data dir provides one. */
export interface Config {
  port: number;
  host: string;
  /**
   * Fastify's `trustProxy`: which peers' X-Forwarded-For gives the client address (`request.ip`,
   * the key of the auth rate limit). false: none, the socket's peer is the client.
   */
  trustProxy: boolean | string[];
  appUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Connections of the PostgreSQL pool (DATABASE_POOL_SIZE); unused on the embedded database. */
  databasePoolSize: number;
  appSecret: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  trialDays: number;
  stripe: {
    secretKey: string | undefined;
    webhookSecret: string | undefined;
    apiBase: string | undefined;
    /** Price ids by lower-case tier name, e.g. { starter: { month: 'price_…', year: 'price_…' } }. */
    prices: Record<string, { month?: string; year?: string }>;
  };
  openai: {
    /** Absent: no AI calls are made. */
    apiKey: string | undefined;
    baseUrl: string;
    reportModel: string;
    timeoutMs: number;
    /** AI report narratives per company per minute. */
    reportsPerMinute: number;
    /** Vision model of the photo scanner. */
    scanModel: string;
    /** Photo scans per company per minute. */
    scansPerMinute: number;
  };
  /** Limits of a scanned photo (modules/scans/photo.ts). */
  scanPhoto: {
    /** Largest upload, in bytes. */
    maxBytes: number;
    /** Largest image, in pixels (width × height). */
    maxInputPixels: number;
  };
  hostaway: { apiBase: string; timeoutMs: number; pageSize: number; syncMinutes: number };
  /** The hour (0–23) of a company's morning the daily email is sent at (docs/product.md "Daily email"). */
  dailyEmailHour: number;
  /** Calendar links (integrations/calendar-feed.ts, modules/calendars). */
  calendar: { refreshMinutes: number; timeoutMs: number; maxBytes: number; allowLoopback: boolean };
  /** Requests one API key may make per minute (server/access.ts, docs/decisions/049-api-keys.md). */
  apiKeyRequestsPerMinute: number;
  /** Webhook deliveries (modules/webhooks, docs/decisions/050-webhooks.md). */
  webhooks: { timeoutMs: number; pollSeconds: number; allowLoopback: boolean };
}

/** Thrown when one or more variables are invalid; `message` names every bad variable. */
export class ConfigError extends Error {}

/**
 * Parses configuration from an environment map (default `process.env`).
 * @throws ConfigError naming every bad variable and why.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = schema.safeParse(env);
  const problems = parsed.success ? [] : parsed.error.issues.map((i) => `  ${String(i.path[0] ?? '?')}: ${i.message}`);
  // Checked on the raw values so it is reported together with every other bad variable.
  if (env.DATABASE_URL && !env.APP_SECRET) problems.push('  APP_SECRET: is required when DATABASE_URL is set');
  if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET) problems.push('  STRIPE_WEBHOOK_SECRET: is required when STRIPE_SECRET_KEY is set');
  if (!parsed.success || problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  const c = parsed.data;
  return {
    port: c.PORT,
    host: c.HOST,
    trustProxy: c.TRUST_PROXY,
    appUrl: (c.APP_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
    dataDir: c.DATA_DIR,
    databaseUrl: c.DATABASE_URL,
    databasePoolSize: c.DATABASE_POOL_SIZE,
    appSecret: c.APP_SECRET,
    smtpUrl: c.SMTP_URL,
    mailFrom: c.MAIL_FROM,
    trialDays: c.TRIAL_DAYS,
    stripe: { secretKey: c.STRIPE_SECRET_KEY, webhookSecret: c.STRIPE_WEBHOOK_SECRET, apiBase: c.STRIPE_API_BASE, prices: priceIds(env) },
    openai: {
      apiKey: c.OPENAI_API_KEY,
      baseUrl: c.OPENAI_BASE_URL,
      reportModel: c.OPENAI_REPORT_MODEL,
      timeoutMs: c.OPENAI_TIMEOUT_MS,
      reportsPerMinute: c.OPENAI_REPORTS_PER_MINUTE,
      scanModel: c.OPENAI_SCAN_MODEL,
      scansPerMinute: c.OPENAI_SCANS_PER_MINUTE,
    },
    scanPhoto: { maxBytes: c.SCAN_PHOTO_MAX_BYTES, maxInputPixels: c.SCAN_MAX_INPUT_PIXELS },
    hostaway: { apiBase: c.HOSTAWAY_API_BASE, timeoutMs: c.HOSTAWAY_TIMEOUT_MS, pageSize: c.HOSTAWAY_PAGE_SIZE, syncMinutes: c.HOSTAWAY_SYNC_MINUTES },
    dailyEmailHour: c.DAILY_EMAIL_HOUR,
    calendar: {
      refreshMinutes: c.CALENDAR_REFRESH_MINUTES,
      timeoutMs: c.CALENDAR_TIMEOUT_MS,
      maxBytes: c.CALENDAR_MAX_BYTES,
      allowLoopback: c.CALENDAR_ALLOW_LOOPBACK === 'true',
    },
    apiKeyRequestsPerMinute: c.API_KEY_REQUESTS_PER_MINUTE,
    webhooks: { timeoutMs: c.WEBHOOK_TIMEOUT_MS, pollSeconds: c.WEBHOOK_POLL_SECONDS, allowLoopback: c.WEBHOOK_ALLOW_LOOPBACK === 'true' },
  };
}

/** Collects STRIPE_PRICE_{TIER}_{MONTHLY|YEARLY} variables into price ids per tier and interval. */
function priceIds(env: Record<string, string | undefined>): Config['stripe']['prices'] {
  const prices: Config['stripe']['prices'] = {};
  for (const [key, value] of Object.entries(env)) {
    const match = PRICE_VAR.exec(key);
    if (!match || !value) continue;
    const tier = match[1]!.toLowerCase().replaceAll('_', ' ');
    prices[tier] = { ...prices[tier], [match[2] === 'MONTHLY' ? 'month' : 'year']: value };
  }
  return prices;
}

/** The variables the server reads, besides the STRIPE_PRICE_ family (PRICE_VAR). */
const KNOWN_VARIABLES = Object.keys(schema.shape);

/** Prefixes of our families of variables: a variable that starts with one is meant for this server. */
const OUR_PREFIXES = ['STRIPE_', 'OPENAI_', 'HOSTAWAY_', 'CALENDAR_', 'SCAN_', 'SMTP_', 'MAIL_', 'DAILY_EMAIL_', 'API_KEY_', 'WEBHOOK_'];

/**
 * Other tools' names for a PostgreSQL connection (POSTGRES_URL, PG_URL, DB_URI,
 * DATABASE_PRIVATE_URL, POSTGRES_HOST…): a word naming the database and a word naming where it is.
 */
const DATABASE_WORDS = new Set(['DATABASE', 'DB', 'POSTGRES', 'POSTGRESQL', 'PG']);
const ADDRESS_WORDS = new Set(['URL', 'URI', 'DSN', 'CONNECTION', 'HOST']);
/** libpq's variables naming the server to reach, which psql reads and this server does not. */
const LIBPQ_SERVER_VARIABLES = new Set(['PGHOST', 'PGDATABASE', 'PGURL']);

/**
 * Most edits (insertions, deletions, substitutions) between a variable and `known` for the
 * variable to count as a misspelling of it: one per six characters, at least one (DATABSE_URL and
 * DATABASE_URI for DATABASE_URL, HOSTS for HOST; HOME is not HOST).
 */
const misspellingDistance = (known: string) => Math.max(1, Math.floor(known.length / 6));

/** A variable that looks meant for the server but is not one it reads, and the one it probably meant. */
export interface ConfigWarning {
  /** The variable as set, e.g. `DATABSE_URL`. */
  variable: string;
  /** The variable it probably meant, e.g. `DATABASE_URL`, or the pattern of a family (`STRIPE_PRICE_{TIER}_{MONTHLY|YEARLY}`). */
  meant: string;
  /** One sentence for the log, naming both. */
  message: string;
}

/** What `variable` (not one the server reads) probably meant, or null when it does not look meant for the server. */
function probablyMeant(variable: string, env: Record<string, string | undefined>): string | null {
  const name = variable.toUpperCase();
  // Names are compared in upper case: database_url is a misspelling of DATABASE_URL too.
  const known = closest(name, KNOWN_VARIABLES);
  if (distance(name, known) <= misspellingDistance(known)) return known;
  const words = name.split('_');
  const namesADatabase =
    LIBPQ_SERVER_VARIABLES.has(name) || (words.some((w) => DATABASE_WORDS.has(w)) && words.some((w) => ADDRESS_WORDS.has(w)));
  // With DATABASE_URL set, another tool's database variable is that tool's business.
  if (namesADatabase && !env.DATABASE_URL) return 'DATABASE_URL';
  if (name.startsWith('STRIPE_PRICE_')) return 'STRIPE_PRICE_{TIER}_{MONTHLY|YEARLY}';
  const prefix = OUR_PREFIXES.find((p) => name.startsWith(p));
  if (prefix) return closest(name, KNOWN_VARIABLES.filter((k) => k.startsWith(prefix)));
  return null;
}

/**
 * The variables of `env` (default `process.env`) that look meant for the server but are not ones
 * it reads, each with the one it probably meant: a misspelling of a variable it reads (by edit
 * distance, in any case: DATABSE_URL, database_url), another tool's name for the database
 * connection while DATABASE_URL is unset (POSTGRES_URL, PG_URL, DATABASE_URI, PGHOST: the server
 * would start on the embedded database without a word), or an unknown member of one of our
 * families (OUR_PREFIXES, STRIPE_PRICE_…). main.ts logs each as a warning at boot; none stops it.
 */
export function configWarnings(env: Record<string, string | undefined> = process.env): ConfigWarning[] {
  const warnings: ConfigWarning[] = [];
  for (const variable of Object.keys(env)) {
    if (KNOWN_VARIABLES.includes(variable) || PRICE_VAR.test(variable)) continue;
    const meant = probablyMeant(variable, env);
    if (!meant) continue;
    const embedded =
      meant === 'DATABASE_URL' && !env.DATABASE_URL ? ` Without DATABASE_URL the server uses the embedded database in ${env.DATA_DIR || DEFAULT_DATA_DIR}.` : '';
    warnings.push({ variable, meant, message: `${variable} is not a variable the server reads: did you mean ${meant}?${embedded}` });
  }
  return warnings;
}
