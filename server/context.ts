/**
 * What every module's routes receive: the database, auth, configuration, adapters and the clock.
 * Tests build it with their own database, mail sink and clock.
 */
import type { FastifyRequest } from 'fastify';
import type { Config } from './config';
import type { Db } from './db/client';
import type { Mailer } from './integrations/mail';
import type { Auth } from './modules/auth/auth';
import type { Identity, TenantIdentity } from './modules/auth/session';

export interface AppContext {
  db: Db;
  auth: Auth;
  config: Config;
  mailer: Mailer;
  /** Current time; tests move it (e.g. to expire a trial). */
  now: () => Date;
  /** The signed-in user. @throws AppError UNAUTHENTICATED */
  identity(request: FastifyRequest): Promise<Identity>;
  /** The signed-in user and their tenant. @throws AppError UNAUTHENTICATED | NO_TENANT */
  tenant(request: FastifyRequest): Promise<TenantIdentity>;
  /**
   * Like `tenant`, for the screens behind the expired-trial gate (docs/product.md
   * "Screens: Expired-trial gate").
   * @throws AppError UNAUTHENTICATED | NO_TENANT | SUBSCRIPTION_REQUIRED
   */
  gatedTenant(request: FastifyRequest): Promise<TenantIdentity>;
}
