/**
 * People's names, email addresses and last activity (docs/product.md "Screens: Users"), read by
 * the server's own login from the accounts' tables, which the application role cannot read
 * (docs/decisions/013-rls-everywhere.md). Callers pass only ids they read inside their company's
 * tenant transaction (its memberships, the authors of its movements, the inviters of its
 * invitations), so nothing of another company's people is ever asked for; this module never runs
 * inside a tenant transaction. It replaced the view `member_directory` (migration 0036): on Citus a
 * view's query runs on the workers with the caller's rights, not its owner's
 * (docs/decisions/042-citus-distribution.md).
 */
import { sql } from 'drizzle-orm';
import { pgArray, queryRows, type Db } from '../../db/client';

/** A person as the Users screen and the emails show them; `lastActiveAt` is their newest session's last renewal (UTC). */
export interface Person {
  email: string;
  name: string;
  lastActiveAt: Date | null;
}

/**
 * The people of `userIds` (ids read in the caller's tenant transaction), by id; an id with no
 * account (deleted) is left out.
 */
export async function peopleByIds(db: Db, userIds: Iterable<string>): Promise<Map<string, Person>> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return new Map();
  const rows = await queryRows<{ id: string; email: string; name: string; last_active_at: string | Date | null }>(
    db,
    sql`select u.id, u.email, u.name, (select max(s.updated_at) from sessions s where s.user_id = u.id) as last_active_at
        from users u where u.id = any(${pgArray(ids)}::uuid[])`,
  );
  return new Map(rows.map((r) => [r.id, { email: r.email, name: r.name, lastActiveAt: r.last_active_at === null ? null : new Date(r.last_active_at) }]));
}

/** How a person is named where their changes are shown (the Dashboard's activity): their name, or their address when they gave none. */
export function displayName(person: Person): string {
  return person.name && person.name !== person.email ? person.name : person.email;
}
