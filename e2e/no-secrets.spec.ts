/**
 * Secrets never reach the browser (docs/ARCHITECTURE.md "The parts"): a production build of the
 * web app, made with the repository's Vite config while every server secret is set in the
 * environment, contains none of their values in any output file.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { build } from 'vite';

/** Distinctive values, so a match can only be a leak. */
const secrets: Record<string, string> = {
  OPENAI_API_KEY: 'sk-proj-LeakProbe-openai-5d1c7e9a2b',
  STRIPE_SECRET_KEY: 'sk_test_LeakProbe_stripe_8f3e6a0c4d',
  STRIPE_WEBHOOK_SECRET: 'whsec_LeakProbe_webhook_2a9b7c5e1f',
  APP_SECRET: 'LeakProbe-app-secret-4e8d2c6a0b9f7e5d3c1a',
};

test('a production build of the web app contains no server secret', async () => {
  const outDir = mkdtempSync(join(tmpdir(), 'inv-web-build-'));
  const saved = Object.fromEntries(Object.keys(secrets).map((name) => [name, process.env[name]]));
  Object.assign(process.env, secrets);
  try {
    await build({
      configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)),
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
    });
    const files = readdirSync(outDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
    expect(files.map((f) => f.slice(outDir.length + 1))).toContain('index.html');
    expect(files.some((f) => f.endsWith('.js'))).toBe(true);
    for (const file of files) {
      // latin1 reads any byte sequence, so binary assets are searched too.
      const content = readFileSync(file, 'latin1');
      for (const [name, value] of Object.entries(secrets)) {
        expect(content.includes(value), `${name} found in ${file}`).toBe(false);
      }
    }
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(outDir, { recursive: true, force: true });
  }
});
