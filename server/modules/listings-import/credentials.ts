/**
 * A company's Hostaway connection (docs/product.md "Import from Hostaway"): the Client ID in clear,
 * the client secret and the current token sealed with the secret box (server/lib/secret-box.ts)
 * with the token's expiry, one row per company in `provider_credentials`. A token is reused until
 * a minute before it expires or until Hostaway refuses it (403); then a new one is asked for with
 * the stored secret and stored in its place.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { HostawayConnection } from '../../../common/contracts/listings-import';
import { providerCredentials, reservations } from '../../db/schema/integrations';
import { withTenant } from '../../db/tenant-tx';
import { HostawayError, type HostawayClient, type HostawaySession } from '../../integrations/hostaway';
import { AppError } from '../../lib/errors';
import type { SecretBox } from '../../lib/secret-box';

/** What the Hostaway features of a company need: its database, the API client, the box that seals secrets, and the clock. */
export interface HostawayDeps {
  db: Db;
  client: HostawayClient;
  box: SecretBox;
  now: () => Date;
  /**
   * Pause after a token is issued before it is used, in ms: Hostaway documents that a new token
   * works about a second after it is issued (tests set 0).
   */
  tokenSettleMs: number;
}

const PROVIDER = 'hostaway';
/** A token this close to its expiry is renewed before use, in ms. */
const EXPIRY_MARGIN_MS = 60_000;

const ofTenant = (tenantId: string) => and(eq(providerCredentials.tenantId, tenantId), eq(providerCredentials.provider, PROVIDER));

/** Turns a failed token request into the dialog's messages (docs/product.md "Messages", "Import"). */
export function tokenFailure(err: unknown): AppError {
  if (!(err instanceof HostawayError)) throw err;
  if (err.kind === 'malformed') return new AppError('PROVIDER_ERROR', 'Invalid token response');
  return new AppError('PROVIDER_ERROR', `Failed to get access token. ${err.message}.`);
}

/**
 * Asks Hostaway for a token with `clientId` and `clientSecret` and stores both (secret and token
 * sealed) for the company, replacing an earlier connection.
 * @throws AppError PROVIDER_ERROR 'Failed to get access token. …' or 'Invalid token response'; nothing is stored then.
 */
export async function connect(deps: HostawayDeps, tenantId: string, clientId: string, clientSecret: string): Promise<void> {
  const token = await deps.client.getToken(clientId, clientSecret).catch((err: unknown) => {
    throw tokenFailure(err);
  });
  const values = {
    clientId,
    clientSecretEnc: deps.box.seal(clientSecret),
    accessTokenEnc: deps.box.seal(token.token),
    expiresAt: new Date(deps.now().getTime() + token.expiresInSeconds * 1000),
    updatedAt: deps.now(),
  };
  await withTenant(deps.db, tenantId, (tx) =>
    tx
      .insert(providerCredentials)
      .values({ tenantId, provider: PROVIDER, ...values })
      .onConflictDoUpdate({ target: [providerCredentials.tenantId, providerCredentials.provider], set: values }),
  );
}

/** The company's Client ID when connected, else undefined. */
export async function connectedAccount(deps: Pick<HostawayDeps, 'db'>, tenantId: string): Promise<string | undefined> {
  const [row] = await withTenant(deps.db, tenantId, (tx) =>
    tx.select({ clientId: providerCredentials.clientId }).from(providerCredentials).where(ofTenant(tenantId)),
  );
  return row?.clientId;
}

/**
 * A session on the company's stored token, renewed with the stored secret when it is about to
 * expire or Hostaway refuses it.
 * @throws AppError CONFLICT 'No access token available' when the company is not connected, or its
 *   stored secrets cannot be read (APP_SECRET changed): it must connect again.
 */
export async function openSession(deps: HostawayDeps, tenantId: string): Promise<HostawaySession> {
  const [row] = await withTenant(deps.db, tenantId, (tx) => tx.select().from(providerCredentials).where(ofTenant(tenantId)));
  if (!row) throw new AppError('CONFLICT', 'No access token available');
  let secret: string;
  let token: string | undefined;
  try {
    secret = deps.box.open(row.clientSecretEnc);
    token = row.accessTokenEnc ? deps.box.open(row.accessTokenEnc) : undefined;
  } catch {
    throw new AppError('CONFLICT', 'No access token available: the stored Hostaway credentials can no longer be read, please connect again');
  }
  const renew = async (): Promise<string> => {
    const fresh = await deps.client.getToken(row.clientId, secret);
    await withTenant(deps.db, tenantId, (tx) =>
      tx
        .update(providerCredentials)
        .set({
          accessTokenEnc: deps.box.seal(fresh.token),
          expiresAt: new Date(deps.now().getTime() + fresh.expiresInSeconds * 1000),
          updatedAt: deps.now(),
        })
        .where(ofTenant(tenantId)),
    );
    if (deps.tokenSettleMs > 0) await sleep(deps.tokenSettleMs);
    return fresh.token;
  };
  const fresh = token && row.expiresAt && row.expiresAt.getTime() - EXPIRY_MARGIN_MS > deps.now().getTime();
  return { token: fresh ? token! : await renew(), renew };
}

/** The connection as the dialog shows it: the account, the last sync and the webhook (its password never). */
export async function connectionState(deps: Pick<HostawayDeps, 'db'>, tenantId: string, webhookUrl: string): Promise<HostawayConnection> {
  const [row] = await withTenant(deps.db, tenantId, (tx) => tx.select().from(providerCredentials).where(ofTenant(tenantId)));
  if (!row) return { connected: false, account_id: null, last_synced_at: null, last_sync_error: null, webhook: null };
  return {
    connected: true,
    account_id: row.clientId,
    last_synced_at: row.lastSyncedAt?.toISOString() ?? null,
    last_sync_error: row.lastSyncError,
    webhook: row.webhookPasswordHash ? { url: webhookUrl, login: tenantId } : null,
  };
}

/** Forgets the company's Hostaway credentials, token and synced reservations (imported units stay). */
export async function disconnect(deps: Pick<HostawayDeps, 'db'>, tenantId: string): Promise<void> {
  await withTenant(deps.db, tenantId, async (tx) => {
    await tx.delete(providerCredentials).where(ofTenant(tenantId));
    await tx.delete(reservations).where(eq(reservations.tenantId, tenantId));
  });
}
