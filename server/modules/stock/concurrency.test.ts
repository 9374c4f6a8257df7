/**
 * The ledger under concurrency, on PostgreSQL (PGlite has one connection, so nothing there runs
 * at the same time): many people changing the same stock rows at once through the API, undoing
 * some of their changes as they go. After
 * every round, every stock row's quantity equals the sum of its ledger rows, a location's
 * deleted rows leave ledger rows that sum to 0, every answered 2xx wrote exactly its own ledger
 * rows, every other answer wrote none, and no answer is a 5xx
 * (docs/decisions/009-ledger-lock-order.md).
 *
 * Each worker is its own member of the company and sends one request at a time, at least 2 ms
 * apart; a transaction's ledger rows carry its start time (`created_at`, which lies between the
 * request's sending and its answer) and its user, so each ledger row belongs to exactly one
 * request.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { memberships } from '../../db/schema/auth';
import { api, backends, createTestApp, signUpAndSignIn, type TestApp } from '../../test/harness';
import { ledgerMismatches, stockTenant, type StockTenant } from '../../test/stock-fixtures';

/** Ledger sums of (location, item) pairs that have no stock row any more: each must be 0. */
async function orphanLedgerSums(t: TestApp, tenantId: string): Promise<unknown[]> {
  return queryRows(
    t.database.db,
    sql`
    select l.source_type, l.location_id, l.item_id, l.total from (
      select source_type, coalesce(unit_id, garage_id) as location_id, item_id, sum(quantity_change)::int as total
      from inventory_logs where tenant_id = ${tenantId} group by 1, 2, 3
    ) l
    where l.total <> 0 and not exists (
      select 1 from unit_inventory s where l.source_type = 'unit' and s.unit_id = l.location_id and s.item_id = l.item_id
      union all
      select 1 from garage_inventory s where l.source_type = 'garage' and s.garage_id = l.location_id and s.item_id = l.item_id)`,
  );
}

interface LedgerRow {
  user_id: string;
  at_ms: number;
  type: string;
  source_type: 'unit' | 'garage';
  unit_id: string | null;
  garage_id: string | null;
  item_id: string;
  quantity_change: number;
  transfer_id: string | null;
}

async function ledgerRowsSince(t: TestApp, tenantId: string, since: number): Promise<LedgerRow[]> {
  const rows = await queryRows<LedgerRow>(
    t.database.db,
    sql`
    select user_id, floor(extract(epoch from created_at) * 1000)::float8 as at_ms, type, source_type, unit_id, garage_id, item_id,
           quantity_change, transfer_id
    from inventory_logs where tenant_id = ${tenantId} and created_at >= to_timestamp(${since / 1000})`,
  );
  return rows.map((r) => ({ ...r, at_ms: Number(r.at_ms), quantity_change: Number(r.quantity_change) }));
}

/** One request a worker sent: what it asked, what it was answered, and when (ms since the epoch). */
interface Sent {
  op: Op;
  status: number;
  body: Record<string, unknown> | null;
  sentAt: number;
  answeredAt: number;
}

type Op =
  | { kind: 'plus' | 'minus' | 'remove'; unitId: string; itemId: string }
  | { kind: 'add' | 'transfer' | 'use'; unitId: string; itemId: string; quantity: number }
  | { kind: 'undo'; unitId: string; movementIds: string[]; of: Op }
  | { kind: 'count'; garageId: string; lines: { item_id: string; quantity: number }[] }
  | { kind: 'deleteUnit'; unitId: string }
  | { kind: 'threshold'; itemId: string; threshold: number };

/**
 * Checks that the ledger rows one worker wrote are exactly those its answered requests account
 * for. @returns the problems found (empty when all is well)
 */
function auditWorker(sent: Sent[], rows: LedgerRow[], garageId: string): string[] {
  const problems: string[] = [];
  const claimed = new Set<LedgerRow>();
  for (const s of sent) {
    const mine = rows.filter((r) => r.at_ms >= s.sentAt && r.at_ms <= s.answeredAt);
    mine.forEach((r) => claimed.add(r));
    const ok = s.status >= 200 && s.status < 300;
    const where = `${s.op.kind} answered ${s.status}`;
    if (!ok) {
      if (mine.length > 0) problems.push(`${where} wrote ${mine.length} ledger rows`);
      continue;
    }
    const op = s.op;
    switch (op.kind) {
      case 'plus': {
        const unit = mine.filter((r) => r.type === 'restock' && r.unit_id === op.unitId && r.item_id === op.itemId && r.quantity_change === 1);
        const garage = mine.filter((r) => r.type === 'restock' && r.garage_id === garageId && r.item_id === op.itemId && r.quantity_change === -1);
        if (mine.length !== 2 || unit.length !== 1 || garage.length !== 1 || unit[0]!.transfer_id !== garage[0]!.transfer_id) {
          problems.push(`${where} wrote ${JSON.stringify(mine)}`);
        }
        break;
      }
      case 'minus': {
        const expected = Number(s.body!.unit_quantity) > 0 ? 1 : mine.length;
        const valid = mine.every((r) => r.type === 'consumption' && r.unit_id === op.unitId && r.item_id === op.itemId && r.quantity_change === -1);
        if (mine.length !== expected || mine.length > 1 || !valid) problems.push(`${where} wrote ${JSON.stringify(mine)}`);
        break;
      }
      case 'add': {
        const valid = mine.length === 1 && ['initial', 'external_addition'].includes(mine[0]!.type) && mine[0]!.unit_id === op.unitId &&
          mine[0]!.item_id === op.itemId && mine[0]!.quantity_change === op.quantity;
        if (!valid) problems.push(`${where} wrote ${JSON.stringify(mine)}`);
        break;
      }
      case 'transfer': {
        const unit = mine.filter((r) => r.type === 'restock' && r.unit_id === op.unitId && r.item_id === op.itemId && r.quantity_change === op.quantity);
        const garage = mine.filter((r) => r.type === 'restock' && r.garage_id === garageId && r.item_id === op.itemId && r.quantity_change === -op.quantity);
        if (mine.length !== 2 || unit.length !== 1 || garage.length !== 1 || unit[0]!.transfer_id !== garage[0]!.transfer_id) {
          problems.push(`${where} wrote ${JSON.stringify(mine)}`);
        }
        break;
      }
      case 'use': {
        const valid = mine.every(
          (r) => r.type === 'consumption' && r.unit_id === op.unitId && r.item_id === op.itemId && r.quantity_change < 0 && r.quantity_change >= -op.quantity,
        );
        if (mine.length > 1 || !valid || (mine.length === 0) !== ((s.body!.movement_ids as string[]).length === 0)) {
          problems.push(`${where} wrote ${JSON.stringify(mine)}`);
        }
        break;
      }
      case 'undo': {
        const of = op.of;
        const unitRows = mine.filter((r) => r.unit_id === op.unitId);
        let valid: boolean;
        if (of.kind === 'transfer') {
          const garage = mine.filter((r) => r.garage_id === garageId && r.quantity_change === of.quantity);
          valid = mine.length === 2 && garage.length === 1 && unitRows.length === 1 && unitRows[0]!.quantity_change === -of.quantity &&
            mine.every((r) => r.type === 'restock' && r.transfer_id === garage[0]!.transfer_id);
        } else if (of.kind === 'add') {
          valid = mine.length === 1 && unitRows.length === 1 && unitRows[0]!.quantity_change === -of.quantity && ['initial', 'external_addition'].includes(unitRows[0]!.type);
        } else {
          const type = of.kind === 'remove' ? 'count' : 'consumption';
          valid = mine.length === 1 && unitRows.length === 1 && unitRows[0]!.quantity_change > 0 && unitRows[0]!.type === type;
        }
        if (!valid) problems.push(`${where} of ${of.kind} wrote ${JSON.stringify(mine)}`);
        break;
      }
      case 'remove': {
        const valid = mine.length <= 1 && mine.every((r) => r.type === 'count' && r.unit_id === op.unitId && r.item_id === op.itemId && r.quantity_change < 0);
        if (!valid) problems.push(`${where} wrote ${JSON.stringify(mine)}`);
        break;
      }
      case 'count': {
        const items = mine.map((r) => r.item_id);
        const valid = new Set(items).size === items.length && mine.every((r) => r.type === 'count' && r.garage_id === op.garageId);
        if (!valid) problems.push(`${where} wrote ${JSON.stringify(mine)}`);
        break;
      }
      case 'deleteUnit': {
        const items = mine.map((r) => r.item_id);
        const valid = new Set(items).size === items.length && mine.every((r) => r.type === 'count' && r.unit_id === op.unitId && r.quantity_change < 0);
        if (!valid) problems.push(`${where} wrote ${JSON.stringify(mine)}`);
        break;
      }
      case 'threshold':
        if (mine.length > 0) problems.push(`${where} wrote ${mine.length} ledger rows`);
    }
  }
  const unclaimed = rows.filter((r) => !claimed.has(r));
  if (unclaimed.length > 0) problems.push(`${unclaimed.length} ledger rows written outside any request: ${JSON.stringify(unclaimed.slice(0, 3))}`);
  return problems;
}

describe.skipIf(!backends.includes('postgres'))('the ledger under concurrent writes on PostgreSQL', () => {
  let t: TestApp;
  let s: StockTenant;
  let itemIds: string[];
  const items = [
    { name: 'Bath Towel', category: 'Linen', minimum_threshold: 3, count_cost: 6.5 },
    { name: 'Coffee Pods', category: 'Kitchen', minimum_threshold: 10, count_cost: 0.45 },
    { name: 'Toilet Paper', category: 'Bath', minimum_threshold: 4, count_cost: 0.8 },
  ];

  beforeAll(async () => {
    t = await createTestApp('postgres');
    s = await stockTenant(t, 'storm-owner@example.com', items);
    itemIds = items.map((i) => s.itemIds[i.name]!);
  });
  afterAll(() => t.close());

  const call = async (cookie: string, op: Op): Promise<Sent> => {
    const sentAt = Date.now();
    const res = await (() => {
      switch (op.kind) {
        case 'plus':
          return api(t, cookie, 'POST', `/api/units/${op.unitId}/inventory/${op.itemId}/restock`);
        case 'minus':
          return api(t, cookie, 'POST', `/api/units/${op.unitId}/inventory/${op.itemId}/consume`);
        case 'remove':
          return api(t, cookie, 'DELETE', `/api/units/${op.unitId}/inventory/${op.itemId}`);
        case 'add':
          return api(t, cookie, 'POST', `/api/units/${op.unitId}/inventory`, { item_id: op.itemId, quantity: op.quantity });
        case 'transfer':
          return api(t, cookie, 'POST', `/api/units/${op.unitId}/inventory/${op.itemId}/transfer`, { quantity: op.quantity });
        case 'use':
          return api(t, cookie, 'POST', `/api/units/${op.unitId}/inventory/${op.itemId}/consume`, { quantity: op.quantity });
        case 'undo':
          return api(t, cookie, 'POST', `/api/units/${op.unitId}/movements/reverse`, { movement_ids: op.movementIds });
        case 'count':
          return api(t, cookie, 'PUT', `/api/garages/${op.garageId}/inventory`, { inventory: op.lines });
        case 'deleteUnit':
          return api(t, cookie, 'DELETE', `/api/units/${op.unitId}`);
        case 'threshold': {
          const item = items[itemIds.indexOf(op.itemId)]!;
          return api(t, cookie, 'PATCH', `/api/items/${op.itemId}`, { ...item, minimum_threshold: op.threshold });
        }
      }
    })();
    const answeredAt = Date.now();
    return { op, status: res.statusCode, body: res.body ? (res.json() as Record<string, unknown>) : null, sentAt, answeredAt };
  };

  it('a remove-row racing plus presses on the same row: a press is applied if and only if it is answered 200', async () => {
    const unitId = s.unitId;
    const itemId = itemIds[0]!;
    const put = await api(t, s.cookie, 'PUT', `/api/garages/${s.garageId}/inventory`, {
      inventory: itemIds.map((id) => ({ item_id: id, quantity: 100_000 })),
    });
    expect(put.statusCode).toBe(200);
    const garageQuantity = async () =>
      (await queryRows<{ q: number }>(t.database.db, sql`select quantity as q from garage_inventory where garage_id = ${s.garageId} and item_id = ${itemId}`))[0]!.q;
    const start = await garageQuantity();
    let accepted = 0;
    const statuses = new Map<number, number>();
    for (let round = 0; round < 40; round++) {
      const add = await api(t, s.cookie, 'POST', `/api/units/${unitId}/inventory`, { item_id: itemId, quantity: 3 });
      expect(add.statusCode).toBe(200);
      const answers = await Promise.all([
        api(t, s.cookie, 'DELETE', `/api/units/${unitId}/inventory/${itemId}`),
        ...Array.from({ length: 6 }, () => api(t, s.cookie, 'POST', `/api/units/${unitId}/inventory/${itemId}/restock`)),
      ]);
      for (const a of answers) statuses.set(a.statusCode, (statuses.get(a.statusCode) ?? 0) + 1);
      accepted += answers.slice(1).filter((a) => a.statusCode === 200).length;
      expect(answers.map((a) => a.statusCode).filter((c) => c >= 500)).toEqual([]);
    }
    const transfers = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from inventory_logs where tenant_id = ${s.tenantId} and type = 'restock' and source_type = 'garage' and item_id = ${itemId}`,
    );
    expect(transfers[0]!.n).toBe(accepted);
    expect(start - (await garageQuantity())).toBe(accepted);
    expect(await ledgerMismatches(t)).toEqual([]);
    expect(await orphanLedgerSums(t, s.tenantId)).toEqual([]);
    console.log(`remove-row vs plus: 40 rounds, answers ${JSON.stringify(Object.fromEntries(statuses))}, ${accepted} presses applied`);
  }, 120_000);

  it('holds for rounds of random plus, minus, restocks and uses of n, Add Manually, counts, row removals, undos, unit deletions and threshold changes', async () => {
    const WORKERS = 10;
    const OPS_PER_WORKER = 30;
    const ROUNDS = 10;
    const cookies: string[] = [];
    for (let w = 0; w < WORKERS; w++) {
      const email = `storm-worker-${w}@example.com`;
      const cookie = await signUpAndSignIn(t, email);
      const me = (await api(t, cookie, 'GET', '/api/me')).json() as { user: { id: string } };
      await t.database.db.insert(memberships).values({ organizationId: s.tenantId, userId: me.user.id, role: 'admin' });
      cookies.push(cookie);
    }
    const extra = await api(t, s.cookie, 'POST', '/api/units', {
      name: 'Harbour Flat', address: '3 Quay', garage_id: s.garageId, inventory: itemIds.map((id) => ({ item_id: id, quantity: 5 })),
    });
    expect(extra.statusCode).toBe(201);
    const steadyUnits = [s.unitId, (extra.json() as { id: string }).id];

    const totals = { operations: 0, byStatus: new Map<number, number>(), undos: new Map<number, number>(), problems: [] as string[] };
    const startedAt = Date.now();
    for (let round = 0; round < ROUNDS; round++) {
      // Small stock, so presses also run the garage dry, and a unit to delete in the middle of it all.
      await api(t, s.cookie, 'PUT', `/api/garages/${s.garageId}/inventory`, { inventory: itemIds.map((id) => ({ item_id: id, quantity: 40 })) });
      const doomed = await api(t, s.cookie, 'POST', '/api/units', {
        name: `Doomed ${round}`, address: '0 Nowhere', garage_id: s.garageId, inventory: itemIds.map((id) => ({ item_id: id, quantity: 2 })),
      });
      expect(doomed.statusCode).toBe(201);
      const unitPool = [...steadyUnits, (doomed.json() as { id: string }).id];
      const roundStart = Date.now() - 1;
      const pick = <T,>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
      const randomOp = (before: Sent | undefined): Op => {
        // Now and then the worker undoes what it just did, as the toast's Undo does.
        const ids = before && before.status === 200 ? (before.body?.movement_ids as string[] | undefined) : undefined;
        if (ids?.length && before!.op.kind !== 'undo' && Math.random() < 0.3) {
          return { kind: 'undo', unitId: (before!.op as { unitId: string }).unitId, movementIds: ids, of: before!.op };
        }
        // The round's doomed unit is deleted early on: aim at it less often than at the others.
        const unitId = Math.random() < 0.15 ? unitPool[2]! : pick(steadyUnits);
        const itemId = pick(itemIds);
        const quantity = 1 + Math.floor(Math.random() * 3);
        const r = Math.random();
        if (r < 0.25) return { kind: 'plus', unitId, itemId };
        if (r < 0.4) return { kind: 'minus', unitId, itemId };
        if (r < 0.5) return { kind: 'use', unitId, itemId, quantity };
        if (r < 0.6) return { kind: 'transfer', unitId, itemId, quantity };
        if (r < 0.75) return { kind: 'add', unitId, itemId, quantity };
        if (r < 0.83) return { kind: 'remove', unitId, itemId };
        if (r < 0.9) {
          return { kind: 'count', garageId: s.garageId, lines: itemIds.map((id) => ({ item_id: id, quantity: Math.floor(Math.random() * 30) })) };
        }
        if (r < 0.95) return { kind: 'deleteUnit', unitId: unitPool[2]! };
        return { kind: 'threshold', itemId, threshold: Math.floor(Math.random() * 8) };
      };
      const sent = await Promise.all(
        cookies.map(async (cookie) => {
          const mine: Sent[] = [];
          for (let i = 0; i < OPS_PER_WORKER; i++) {
            mine.push(await call(cookie, randomOp(mine.at(-1))));
            await sleep(2); // keeps one worker's requests apart in time (see the module comment)
          }
          return mine;
        }),
      );
      const rows = await ledgerRowsSince(t, s.tenantId, roundStart);
      const userIds = await queryRows<{ id: string; email: string }>(
        t.database.db,
        sql`select id, email from users where email like 'storm-worker-%'`,
      );
      const userOf = new Map(userIds.map((u) => [u.email, u.id]));
      sent.forEach((mine, w) => {
        const userId = userOf.get(`storm-worker-${w}@example.com`)!;
        totals.problems.push(...auditWorker(mine, rows.filter((r) => r.user_id === userId), s.garageId));
        for (const x of mine) {
          totals.byStatus.set(x.status, (totals.byStatus.get(x.status) ?? 0) + 1);
          if (x.op.kind === 'undo') totals.undos.set(x.status, (totals.undos.get(x.status) ?? 0) + 1);
        }
        totals.operations += mine.length;
      });
      const fivehundreds = sent.flat().filter((x) => x.status >= 500);
      expect(fivehundreds.map((x) => `${x.op.kind} ${x.status} ${JSON.stringify(x.body)}`)).toEqual([]);
      expect(await ledgerMismatches(t)).toEqual([]);
      expect(await orphanLedgerSums(t, s.tenantId)).toEqual([]);
      expect(totals.problems).toEqual([]);
      // The round's unit was deleted at most once, and whoever did not delete it was told 404.
      const deletes = sent.flat().filter((x) => x.op.kind === 'deleteUnit');
      expect(deletes.filter((x) => x.status === 204).length).toBeLessThanOrEqual(1);
      expect(deletes.every((x) => x.status === 204 || x.status === 404)).toBe(true);
    }
    console.log(
      `concurrent ledger storm: ${totals.operations} operations by ${WORKERS} workers in ${ROUNDS} rounds, ` +
        `${((Date.now() - startedAt) / 1000).toFixed(1)} s, answers ${JSON.stringify(Object.fromEntries(totals.byStatus))} ` +
        `(undos ${JSON.stringify(Object.fromEntries(totals.undos))}), ` +
        `5xx 0, ledger drift 0`,
    );
  }, 240_000);
});
