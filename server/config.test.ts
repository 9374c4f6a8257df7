import { describe, expect, it } from 'vitest';
import { ConfigError, configWarnings, loadConfig } from './config';

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 3000, host: '0.0.0.0', appUrl: 'http://localhost:3000', dataDir: './data', trialDays: 14, apiKeyRequestsPerMinute: 120 });
    expect(c.databaseUrl).toBeUndefined();
    expect(c.smtpUrl).toBeUndefined();
  });

  it('names every bad variable in one message', () => {
    let message = '';
    try {
      loadConfig({ PORT: 'abc', TRIAL_DAYS: '-1', SMTP_URL: 'http://x', APP_URL: 'not a url', DATABASE_URL: 'postgres://h/db' });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      message = (err as Error).message;
    }
    for (const name of ['PORT', 'TRIAL_DAYS', 'SMTP_URL', 'APP_URL', 'APP_SECRET']) expect(message).toContain(`${name}:`);
  });

  it('requires APP_SECRET with DATABASE_URL', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://127.0.0.1/x' })).toThrow(/APP_SECRET: is required/);
    expect(loadConfig({ DATABASE_URL: 'postgres://127.0.0.1/x', APP_SECRET: 'x'.repeat(32) }).databaseUrl).toBe('postgres://127.0.0.1/x');
  });

  it('reads TRUST_PROXY as Fastify trustProxy: off by default, on, or proxy addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,loopback,fd00::/8' }).trustProxy).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      'loopback',
      'fd00::/8',
    ]);
    for (const bad of ['yes', '2', '10.0.0.300', '10.0.0.0/33', 'proxy.example']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY: must be false, true or proxy addresses/);
    }
  });

  it('warns about no variable of an ordinary environment, ours or the system\'s', () => {
    const env = Object.fromEntries(
      [
        ...['PATH', 'HOME', 'HOSTNAME', 'USER', 'SHELL', 'TERM', 'LANG', 'PWD', 'TZ', 'CI', 'NODE_ENV', 'NODE_OPTIONS', 'HTTP_PROXY', 'NO_PROXY'],
        ...['npm_lifecycle_event', 'npm_package_version', 'npm_config_cache', 'INIT_CWD', 'KUBERNETES_SERVICE_HOST', 'KUBERNETES_PORT'],
        // libpq's settings apply to DATABASE_URL's connection (node-postgres reads them).
        ...['PGPASSWORD', 'PGSSLMODE', 'PGUSER'],
        ...['PORT', 'DATA_DIR', 'APP_URL', 'SMTP_URL', 'OPENAI_API_KEY', 'STRIPE_PRICE_STARTER_MONTHLY', 'STRIPE_PRICE_ENTERPRISE_YEARLY'],
      ].map((name) => [name, 'x']),
    );
    expect(configWarnings(env)).toEqual([]);
  });

  it('warns about a misspelt DATABASE_URL, naming it and saying the embedded database starts instead', () => {
    for (const variable of ['DATABSE_URL', 'DATABASE_URI', 'database_url', 'POSTGRES_URL', 'PG_URL', 'DB_URL', 'DATABASE_PRIVATE_URL', 'PGHOST']) {
      const warnings = configWarnings({ [variable]: 'postgres://127.0.0.1/inventory', DATA_DIR: '/var/lib/inventory' });
      expect(warnings, variable).toEqual([
        {
          variable,
          meant: 'DATABASE_URL',
          message: `${variable} is not a variable the server reads: did you mean DATABASE_URL? Without DATABASE_URL the server uses the embedded database in /var/lib/inventory.`,
        },
      ]);
      // The embedded database still starts: a warning, not a refusal.
      expect(loadConfig({ [variable]: 'postgres://127.0.0.1/inventory' }).databaseUrl).toBeUndefined();
    }
  });

  it("leaves other tools' database variables alone once DATABASE_URL is set, not misspellings of it", () => {
    const env = { DATABASE_URL: 'postgres://127.0.0.1/x', APP_SECRET: 'x'.repeat(32), POSTGRES_URL: 'postgres://a', PGHOST: 'db', DATABSE_URL: 'postgres://b' };
    expect(configWarnings(env).map((w) => [w.variable, w.message])).toEqual([
      ['DATABSE_URL', 'DATABSE_URL is not a variable the server reads: did you mean DATABASE_URL?'],
    ]);
  });

  it('warns about misspellings of our variables and unknown members of our families, with what each probably meant', () => {
    const env = Object.fromEntries(
      ['APP_SECRT', 'TRIAL_DAY', 'HOSTS', 'smtp_url', 'SMTP_HOST', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_PRICE_STARTER_MONTH', 'OPENAI_ORG_ID', 'HOSTAWAY_PAGE_SIZES'].map((name) => [name, 'x']),
    );
    expect(Object.fromEntries(configWarnings(env).map((w) => [w.variable, w.meant]))).toEqual({
      APP_SECRT: 'APP_SECRET',
      TRIAL_DAY: 'TRIAL_DAYS',
      HOSTS: 'HOST',
      smtp_url: 'SMTP_URL',
      SMTP_HOST: 'SMTP_URL',
      STRIPE_PUBLISHABLE_KEY: 'STRIPE_SECRET_KEY',
      STRIPE_PRICE_STARTER_MONTH: 'STRIPE_PRICE_{TIER}_{MONTHLY|YEARLY}',
      OPENAI_ORG_ID: expect.stringMatching(/^OPENAI_/),
      HOSTAWAY_PAGE_SIZES: 'HOSTAWAY_PAGE_SIZE',
    });
  });
});
