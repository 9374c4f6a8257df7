/**
 * Hostaway's unified webhook (docs/product.md "Import from Hostaway"): Hostaway authenticates it
 * with HTTP Basic only (no signature), with a login and password we generate for the company to
 * paste into Hostaway. The login is the company's id; only the password's SHA-256 is stored (it
 * is a random 32-byte value, so a fast hash is enough). An event is acknowledged at once: it is
 * recorded by a hash of its body (a repeated delivery is ignored) and the reservation it names is
 * read again from Hostaway by a job; its payload itself is never trusted.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { WebhookCredentials } from '../../../common/contracts/listings-import';
import type { Db } from '../../db/client';
import { providerCredentials, providerWebhookEvents } from '../../db/schema/integrations';
import { withTenant } from '../../db/tenant-tx';
import { AppError } from '../../lib/errors';

/** The path Hostaway posts to. */
export const WEBHOOK_PATH = '/api/hostaway/webhook';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const unauthorized = () => new AppError('UNAUTHENTICATED', 'Wrong webhook login or password');

/**
 * New Basic-auth credentials for the company's webhook (replacing earlier ones); the password is
 * returned this once.
 * @throws AppError CONFLICT 'No access token available' when the company is not connected.
 */
export async function generateWebhookCredentials(db: Db, tenantId: string, appUrl: string): Promise<Required<WebhookCredentials>> {
  const password = randomBytes(32).toString('base64url');
  const updated = await withTenant(db, tenantId, (tx) =>
    tx
      .update(providerCredentials)
      .set({ webhookPasswordHash: sha256(password) })
      .where(and(eq(providerCredentials.tenantId, tenantId), eq(providerCredentials.provider, 'hostaway')))
      .returning({ tenantId: providerCredentials.tenantId }),
  );
  if (updated.length === 0) throw new AppError('CONFLICT', 'No access token available');
  return { url: `${appUrl}${WEBHOOK_PATH}`, login: tenantId, password };
}

/**
 * The company whose webhook credentials `authorization` carries.
 * @throws AppError UNAUTHENTICATED (401) for a missing or wrong login or password.
 */
export async function webhookTenant(db: Db, authorization: string | undefined): Promise<string> {
  const encoded = /^Basic ([A-Za-z0-9+/=]+)$/.exec(authorization ?? '')?.[1];
  if (!encoded) throw unauthorized();
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const login = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  if (colon < 0 || !z.uuid().safeParse(login).success) throw unauthorized();
  const [row] = await withTenant(db, login, (tx) =>
    tx
      .select({ hash: providerCredentials.webhookPasswordHash })
      .from(providerCredentials)
      .where(and(eq(providerCredentials.tenantId, login), eq(providerCredentials.provider, 'hostaway'))),
  );
  const expected = Buffer.from(row?.hash ?? '0'.repeat(64), 'hex');
  const given = Buffer.from(sha256(password), 'hex');
  if (!row?.hash || !timingSafeEqual(expected, given)) throw unauthorized();
  return login;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/**
 * The reservation id an event names, or undefined for events about anything else. Hostaway does
 * not document the payload: `{object, event, data}` and `{…, payload: {data}}` are both accepted.
 */
export function reservationIdOf(body: unknown): number | undefined {
  const event = obj(body);
  const data = { ...obj(obj(event.payload).data), ...obj(event.data) };
  const kind = String(event.object ?? event.event ?? '').toLowerCase();
  if (kind && !kind.includes('reservation')) return undefined;
  const id = Number(data.id ?? data.reservationId);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/** Records the event; false when the same body was received before (nothing more to do). */
export async function firstDelivery(db: Db, tenantId: string, rawBody: string): Promise<boolean> {
  const inserted = await withTenant(db, tenantId, (tx) =>
    tx
      .insert(providerWebhookEvents)
      .values({ tenantId, eventKey: sha256(rawBody) })
      .onConflictDoNothing()
      .returning({ key: providerWebhookEvents.eventKey }),
  );
  return inserted.length > 0;
}
