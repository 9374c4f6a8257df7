/**
 * What every module's routes receive: the database, auth, configuration, adapters and the clock.
 * Tests build it with their own database, mail sink and clock. The caller's identity is not here:
 * the access hook resolves it from the route's declared access (server/access.ts).
 */
import type { Config } from './config';
import type { Db } from './db/client';
import type { Mailer } from './integrations/mail';
import type { Limits } from './lib/limits';
import type { Auth } from './modules/auth/auth';

export interface AppContext {
  db: Db;
  auth: Auth;
  config: Config;
  mailer: Mailer;
  /** Makes the rate limits, shared by every server on the database (lib/limits.ts). */
  limits: Limits;
  /** Current time; tests move it (e.g. to expire a trial). */
  now: () => Date;
}
