/**
 * A company's API keys (docs/product.md "API keys", docs/decisions/049-api-keys.md): created,
 * listed and revoked by its Admins and Owners in a browser session (routes.ts), and read by the
 * access hook (server/access.ts) on every request that carries `Authorization: Bearer <key>`.
 *
 * A key acts for its company with its role, capped by its creator's current role (a key never
 * does more than the person who made it may do now), and stops working when it is revoked or
 * when its creator leaves the company. It is read from the database on every request, by its
 * hash, so a revoked key is refused on the very next request by every server.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { ApiKey, ApiKeyRole, CreateApiKeyBody, CreatedApiKey } from '../../../common/contracts/api-keys';
import type { Role } from '../../../common/contracts/session';
import { isAtLeast } from '../../../common/permissions';
import { pgArray, queryRows, type Db } from '../../db/client';
import { apiKeys } from '../../db/schema/api-keys';
import { withTenant } from '../../db/tenant-tx';
import { AppError, notFound } from '../../lib/errors';
import { ROLE_REFUSED_MESSAGE } from '../../lib/roles';
import { displayName, peopleByIds } from '../auth/people';
import type { ApiKeyActor, TenantIdentity } from '../auth/identity';
import { keyHash, newKey, newKeyId, sameHash } from './key';

/** The membership role a key's role acts with ('read_only' acts as a member, on reads only). */
const actsAs: Record<ApiKeyRole, Role> = { read_only: 'member', member: 'member', admin: 'admin' };

/** Milliseconds between two writes of a key's last use: at most one write a minute per key, not one per request. */
export const LAST_USE_PRECISION_MS = 60_000;

/** True when someone with `role` may create a key of `keyRole`: never one that does more than they may. */
export function mayCreate(role: Role, keyRole: ApiKeyRole): boolean {
  return isAtLeast(role, actsAs[keyRole]);
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

type KeyRow = {
  id: string;
  name: string;
  role: ApiKeyRole;
  prefix: string;
  created_by: string | null;
  created_at: string | Date;
  last_used_at: string | Date | null;
  revoked_at: string | Date | null;
};

/** The company's keys, newest first, with each creator named (decision 029's rule: a creator who left is 'a former member'). */
export async function listKeys(db: Db, who: TenantIdentity): Promise<ApiKey[]> {
  const { rows, members } = await withTenant(db, who.tenantId, async (tx) => {
    const rows = await queryRows<KeyRow>(
      tx,
      sql`select id, name, role, prefix, created_by, created_at, last_used_at, revoked_at
          from api_keys where tenant_id = ${who.tenantId} order by created_at desc, id desc`,
    );
    const creators = [...new Set(rows.flatMap((r) => (r.created_by ? [r.created_by] : [])))];
    const members =
      creators.length === 0
        ? []
        : await queryRows<{ user_id: string }>(tx, sql`select user_id from memberships where tenant_id = ${who.tenantId} and user_id = any(${pgArray(creators)}::uuid[])`);
    return { rows, members: new Set(members.map((m) => m.user_id)) };
  });
  const people = await peopleByIds(db, members);
  return rows.map((r) => {
    const person = r.created_by ? people.get(r.created_by) : undefined;
    return {
      id: r.id,
      name: r.name,
      role: r.role,
      prefix: r.prefix,
      created_by: r.created_by === null ? null : person ? displayName(person) : 'a former member',
      created_at: iso(r.created_at)!,
      last_used_at: iso(r.last_used_at),
      revoked_at: iso(r.revoked_at),
    };
  });
}

/**
 * Creates a key of the caller's company with `body.name` and `body.role`.
 * @returns the key as listed, with the whole key (`key`): the only time it is ever shown.
 * @throws AppError FORBIDDEN when the role is more than the caller's own.
 */
export async function createKey(db: Db, who: TenantIdentity, body: CreateApiKeyBody, now: Date): Promise<CreatedApiKey> {
  if (!mayCreate(who.role, body.role)) throw new AppError('FORBIDDEN', ROLE_REFUSED_MESSAGE);
  const { key, hash, prefix } = newKey();
  const id = newKeyId();
  await withTenant(db, who.tenantId, (tx) =>
    tx.insert(apiKeys).values({ tenantId: who.tenantId, id, name: body.name, role: body.role, keyHash: hash, prefix, createdBy: who.userId, createdAt: now }),
  );
  const creator = (await peopleByIds(db, [who.userId])).get(who.userId);
  return {
    id,
    name: body.name,
    role: body.role,
    prefix,
    created_by: creator ? displayName(creator) : who.email,
    created_at: now.toISOString(),
    last_used_at: null,
    revoked_at: null,
    key,
  };
}

/**
 * Revokes the key `keyId` of the caller's company: the next request made with it, on any server,
 * is refused. Revoking a revoked key changes nothing.
 * @throws AppError NOT_FOUND when the company has no key with that id.
 */
export async function revokeKey(db: Db, who: TenantIdentity, keyId: string, now: Date): Promise<void> {
  await withTenant(db, who.tenantId, async (tx) => {
    const [found] = await tx
      .select({ revokedAt: apiKeys.revokedAt })
      .from(apiKeys)
      .where(and(eq(apiKeys.tenantId, who.tenantId), eq(apiKeys.id, keyId)));
    if (!found) throw notFound('API key');
    if (found.revokedAt) return;
    await tx
      .update(apiKeys)
      .set({ revokedAt: now, revokedBy: who.userId })
      .where(and(eq(apiKeys.tenantId, who.tenantId), eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)));
  });
}

/** Refusal of a key that is unknown, revoked or malformed (401). */
export const KEY_REFUSED_MESSAGE = 'This API key is not valid or has been revoked. Ask an admin of your company for a new key.';
const CREATOR_GONE_MESSAGE = 'This API key no longer works: the person who created it is no longer a member of the company. Ask an admin for a new key.';

/**
 * The identity of a request made with the key `key`: its company, the role it acts with (its own,
 * capped by its creator's current role) and the key. `userId` is the key's id: the stock writers
 * record it on each movement, and the ledger's trigger turns it into `api_key_id` with the creator
 * as `user_id` (migration 0043). Read by the server's login before the company is known, one
 * indexed read by hash; the key's last use is written when the stored one is a minute old or more.
 * @throws AppError UNAUTHENTICATED (401) for an unknown or revoked key, or one whose creator left the company.
 */
export async function keyIdentity(db: Db, key: string, now: Date): Promise<TenantIdentity & { apiKey: ApiKeyActor }> {
  const hash = keyHash(key);
  const [row] = await queryRows<{
    id: string;
    tenant_id: string;
    name: string;
    role: ApiKeyRole;
    key_hash: string;
    created_by: string | null;
    last_used_at: string | Date | null;
    creator_role: string | null;
  }>(
    db,
    sql`select k.id, k.tenant_id, k.name, k.role, k.key_hash, k.created_by, k.last_used_at, m.role as creator_role
        from api_keys k left join memberships m on m.tenant_id = k.tenant_id and m.user_id = k.created_by
        where k.key_hash = ${hash} and k.revoked_at is null
        limit 1`,
  );
  // The index found the row by hash; the comparison that accepts it takes the same time whatever it holds.
  if (!row || !sameHash(row.key_hash, hash)) throw new AppError('UNAUTHENTICATED', KEY_REFUSED_MESSAGE);
  const creatorRole = row.creator_role as Role | null;
  if (!row.created_by || !creatorRole || !(['owner', 'admin', 'member'] as const).includes(creatorRole)) {
    throw new AppError('UNAUTHENTICATED', CREATOR_GONE_MESSAGE);
  }
  const own = actsAs[row.role];
  const role: Role = isAtLeast(creatorRole, own) ? own : creatorRole;
  const lastUse = row.last_used_at === null ? null : new Date(row.last_used_at).getTime();
  if (lastUse === null || now.getTime() - lastUse >= LAST_USE_PRECISION_MS) {
    // Conditional too, so servers that see the same old value write it once between them.
    await db.execute(
      sql`update api_keys set last_used_at = ${now.toISOString()}::timestamptz
          where tenant_id = ${row.tenant_id} and id = ${row.id}
            and (last_used_at is null or last_used_at <= ${new Date(now.getTime() - LAST_USE_PRECISION_MS).toISOString()}::timestamptz)`,
    );
  }
  return {
    userId: row.id,
    email: '',
    tenantId: row.tenant_id,
    role,
    apiKey: { id: row.id, name: row.name, createdBy: row.created_by, readOnly: row.role === 'read_only' },
  };
}

