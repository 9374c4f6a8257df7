/**
 * Who a request is (server/access.ts sets it from the session or the API key): the signed-in
 * user, with their company and role on tenant routes. Types only, shared by the session reader,
 * its cache and every route.
 */
import type { Role } from '../../../common/contracts/session';

export interface Identity {
  userId: string;
  email: string;
  tenantId: string | null;
  role: Role | null;
}

export interface TenantIdentity extends Identity {
  tenantId: string;
  role: Role;
  /**
   * Set when the request was made with an API key (modules/api-keys, docs/decisions/049-api-keys.md).
   * `userId` is then the key's id, which the stock writers record on each movement and the
   * ledger's trigger turns into `api_key_id` with the key's creator as `user_id`; `email` is empty.
   * Routes about a person (their settings, the team, keys themselves) are refused to keys.
   */
  apiKey?: ApiKeyActor;
}

/** The API key a request was made with. */
export interface ApiKeyActor {
  id: string;
  name: string;
  /** The person who created it (the ledger's `user_id` of its changes). */
  createdBy: string;
  /** A read-only key: GET routes open to members only. */
  readOnly: boolean;
}
