/**
 * A company's API keys (docs/product.md "API keys", docs/decisions/049-api-keys.md): the Admins
 * and Owners of a company create keys with a name and a role; a script then calls the /api routes
 * with `Authorization: Bearer <key>` as the company, within the key's role.
 */
import { z } from 'zod';
import { requiredText } from './fields';

/**
 * What a key may do, least first: 'read_only' calls the GET routes open to members (seeing the
 * company's records); 'member' what a member may; 'admin' what an admin may. No key acts as an
 * owner, and none manages keys, people's own settings, the team or billing.
 */
export const apiKeyRoles = ['read_only', 'member', 'admin'] as const;
export type ApiKeyRole = (typeof apiKeyRoles)[number];

/** How a key's role is named on screen. */
export const apiKeyRoleNames: Record<ApiKeyRole, string> = { read_only: 'Read-only', member: 'Member', admin: 'Admin' };

/** The start of every key, so a leaked one is recognised (by people and secret scanners). */
export const API_KEY_PREFIX = 'imk_';

/** A key as the API keys screen lists it; the key itself is never shown again after its creation. */
export const apiKey = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(apiKeyRoles),
  /** The key's first characters, to recognise it ("imk_AbC123…"). */
  prefix: z.string(),
  /** The creator's name or email; 'a former member' once they left, null when their account is gone. */
  created_by: z.string().nullable(),
  /** ISO 8601 UTC. */
  created_at: z.string(),
  /** ISO 8601 UTC, to the minute; null before the first request. */
  last_used_at: z.string().nullable(),
  /** ISO 8601 UTC; null while the key works. */
  revoked_at: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKey>;

/** GET /api/api-keys: the company's keys, newest first, revoked ones included. */
export const apiKeyList = z.object({ keys: z.array(apiKey) });
export type ApiKeyList = z.infer<typeof apiKeyList>;

/** POST /api/api-keys */
export const createApiKeyBody = z.strictObject({
  name: requiredText('Name', 'Name is required'),
  role: z.enum(apiKeyRoles, 'Role must be Read-only, Member or Admin'),
});
export type CreateApiKeyBody = z.infer<typeof createApiKeyBody>;

/** The answer to a creation: the key as listed, and the whole key, shown this once. */
export const createdApiKey = apiKey.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKey>;
