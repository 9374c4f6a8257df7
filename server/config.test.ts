import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 3000, host: '0.0.0.0', appUrl: 'http://localhost:3000', dataDir: './data', trialDays: 14 });
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
});
