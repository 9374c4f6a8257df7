/**
 * npm run tenant:plan -- <tenant> <plan>
 *   <tenant>  tenant id, slug or company name
 *   <plan>    Starter | Professional | Enterprise   an active plan, set by hand
 *             none                                  no plan (the trial rules apply again)
 *             trial=<days>                          the trial ends <days> days from now (0: now)
 * Uses the server's configuration (DATA_DIR or DATABASE_URL); on the embedded database the
 * server must be stopped first.
 */
import { resolve } from 'node:path';
import { utc } from '@date-fns/utc';
import { addDays } from 'date-fns';
import { loadConfig } from '../server/config';
import { openPglite, openPostgres } from '../server/db/client';
import { runMigrations } from '../server/db/migrate';
import { findTenant, setTenantPlan, setTrialEnd } from '../server/modules/billing/operator';
import { getSubscriptionStatus } from '../server/modules/billing/service';

async function main(): Promise<number> {
  const [ref, plan] = process.argv.slice(2);
  if (!ref || !plan) {
    console.error('Usage: npm run tenant:plan -- <tenant id, slug or name> <Starter|Professional|Enterprise|none|trial=<days>>');
    return 2;
  }
  const config = loadConfig();
  const database = config.databaseUrl ? openPostgres(config.databaseUrl, 2) : await openPglite(resolve(config.dataDir));
  try {
    await runMigrations(database);
    const tenant = await findTenant(database.db, ref);
    const trial = /^trial=(\d+)$/.exec(plan);
    if (trial) await setTrialEnd(database.db, tenant.id, addDays(Date.now(), Number(trial[1]), { in: utc }));
    else await setTenantPlan(database.db, tenant.id, plan.toLowerCase() === 'none' ? null : plan);
    const status = await getSubscriptionStatus(database.db, tenant.id, new Date());
    console.log(`${tenant.name} (${tenant.id}):`, status);
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(err.message);
    process.exit(1);
  },
);
