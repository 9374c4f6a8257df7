import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: ['./server/db/schema/auth.ts', './server/db/schema/stock.ts', './server/db/schema/billing.ts', './server/db/schema/integrations.ts', './server/db/schema/scans.ts', './server/db/schema/forecast.ts', './server/db/schema/limits.ts', './server/db/schema/requests.ts', './server/db/schema/api-keys.ts', './server/db/schema/webhooks.ts'],
  out: './drizzle',
});
