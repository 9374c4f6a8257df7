/**
 * `Idempotency-Key` on every stock write (server/lib/idempotency.ts, decision 047), on both
 * databases: each stock-changing route answers a repeat with the first answer and writes nothing
 * twice; a key is the company's own; a reused key with another body is refused; a refused write
 * releases its key; keys expire after IDEMPOTENCY_KEEP_HOURS; requests sent at the same moment
 * write once.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client';
import { api, backends, createTestApp, signUpAndSignIn, type TestApp } from '../test/harness';
import { ledgerMismatches, stockTenant, type StockTenant } from '../test/stock-fixtures';
import { ABANDONED_CLAIM_SECONDS, REPLAYED_HEADER } from './idempotency';

type Method = 'POST' | 'PUT' | 'DELETE';

/** Sends `body` (none when undefined) with `key` (none when undefined) as the tenant's owner. */
function send(t: TestApp, cookie: string, method: Method, url: string, body: unknown, key: string | undefined) {
  return t.app.inject({
    method,
    url,
    headers: {
      cookie,
      ...(key === undefined ? {} : { 'idempotency-key': key }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

/** The company's ledger rows, all locations. */
async function movementCount(t: TestApp, tenantId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from inventory_logs where tenant_id = ${tenantId}`);
  return row!.n;
}

async function unitQuantity(t: TestApp, s: StockTenant, unitId: string, itemId: string): Promise<number> {
  const unit = (await api(t, s.cookie, 'GET', `/api/units/${unitId}`)).json() as { inventory: { item_id: string; quantity: number }[] };
  return unit.inventory.find((r) => r.item_id === itemId)?.quantity ?? 0;
}

/** A stock write of the table below: the request, built once the ones before it have run. */
interface Case {
  operationId: string;
  request: () => Promise<{ method: Method; url: string; body?: unknown }>;
}

describe.each(backends)('Idempotency-Key on %s', (backend) => {
  let t: TestApp;
  let s: StockTenant;
  let towel: string;
  let pods: string;
  let keyCount = 0;
  const newKey = () => `key-${backend}-${++keyCount}`;

  beforeAll(async () => {
    t = await createTestApp(backend);
    s = await stockTenant(t, `keys-${backend}@example.com`);
    towel = s.itemIds['Bath Towel']!;
    pods = s.itemIds['Coffee Pods']!;
    const stocked = await api(t, s.cookie, 'PUT', `/api/garages/${s.garageId}/inventory`, {
      inventory: [
        { item_id: towel, quantity: 500 },
        { item_id: pods, quantity: 500 },
      ],
    });
    expect(stocked.statusCode).toBe(200);
  });
  afterAll(() => t.close());

  // Ids the cases create and later cases use.
  let extraUnit = '';
  let extraGarage = '';
  const cases: Case[] = [
    { operationId: 'transferUnitStock', request: async () => ({ method: 'POST', url: `/api/units/${s.unitId}/inventory/${towel}/transfer`, body: { quantity: 2 } }) },
    { operationId: 'consumeUnitStock', request: async () => ({ method: 'POST', url: `/api/units/${s.unitId}/inventory/${towel}/consume`, body: { quantity: 1 } }) },
    { operationId: 'consumeUnitStock (no body)', request: async () => ({ method: 'POST', url: `/api/units/${s.unitId}/inventory/${towel}/consume` }) },
    { operationId: 'addUnitStock', request: async () => ({ method: 'POST', url: `/api/units/${s.unitId}/inventory`, body: { item_id: pods, quantity: 3 } }) },
    { operationId: 'restockUnitToMinimum', request: async () => ({ method: 'POST', url: `/api/units/${s.unitId}/restock-to-minimum` }) },
    {
      operationId: 'countUnit',
      request: async () => {
        const expected = await unitQuantity(t, s, s.unitId, towel);
        return { method: 'POST', url: `/api/units/${s.unitId}/count`, body: { lines: [{ item_id: towel, expected, counted: expected + 4 }] } };
      },
    },
    {
      operationId: 'reverseUnitStockChanges',
      request: async () => {
        const used = (await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${towel}/consume`, { quantity: 1 })).json() as { movement_ids: string[] };
        return { method: 'POST', url: `/api/units/${s.unitId}/movements/reverse`, body: { movement_ids: used.movement_ids } };
      },
    },
    {
      operationId: 'deliverPickList',
      request: async () => ({ method: 'POST', url: `/api/units/${s.unitId}/pick-list/deliver`, body: { lines: [{ item_id: pods, quantity: 2 }] } }),
    },
    {
      operationId: 'applyScan',
      request: async () => {
        const [scan] = await queryRows<{ id: string }>(
          t.database.db,
          sql`insert into scans (tenant_id, unit_id, user_id, photo, detections, model)
              values (${s.tenantId}, ${s.unitId}, ${s.owner.userId}, decode('ffd8ffd9', 'hex'),
                      ${JSON.stringify([{ item_id: towel, quantity: 2, confidence: 0.9 }])}::jsonb, 'fake-vision')
              returning id`,
        );
        return { method: 'POST', url: `/api/scans/${scan!.id}/apply`, body: { mode: 'restock', items: [{ item_id: towel, quantity: 2 }] } };
      },
    },
    { operationId: 'removeUnitStock', request: async () => ({ method: 'DELETE', url: `/api/units/${s.unitId}/inventory/${pods}` }) },
    {
      operationId: 'createUnit',
      request: async () => ({
        method: 'POST',
        url: '/api/units',
        body: { name: 'Lake Cabin', address: '3 Pier Road', garage_id: s.garageId, inventory: [{ item_id: towel, quantity: 5 }] },
      }),
    },
    {
      operationId: 'deleteUnit',
      request: async () => {
        const units = (await api(t, s.cookie, 'GET', '/api/units')).json() as { id: string; name: string }[];
        extraUnit = units.find((u) => u.name === 'Lake Cabin')!.id;
        return { method: 'DELETE', url: `/api/units/${extraUnit}` };
      },
    },
    {
      operationId: 'createGarage',
      request: async () => ({ method: 'POST', url: '/api/garages', body: { name: 'Annex', address: '4 Side Street', inventory: [{ item_id: pods, quantity: 7 }] } }),
    },
    {
      operationId: 'replaceGarageInventory',
      request: async () => {
        const garages = (await api(t, s.cookie, 'GET', '/api/garages')).json() as { id: string; name: string }[];
        extraGarage = garages.find((g) => g.name === 'Annex')!.id;
        return { method: 'PUT', url: `/api/garages/${extraGarage}/inventory`, body: { inventory: [{ item_id: pods, quantity: 9 }] } };
      },
    },
    {
      operationId: 'countGarage',
      request: async () => ({ method: 'POST', url: `/api/garages/${extraGarage}/count`, body: { lines: [{ item_id: pods, expected: 9, counted: 6 }] } }),
    },
    {
      operationId: 'deleteGarage',
      request: async () => {
        const shed = (await api(t, s.cookie, 'POST', '/api/garages', { name: 'Empty Shed', address: '5 Back Lane' })).json() as { id: string };
        return { method: 'DELETE', url: `/api/garages/${shed.id}` };
      },
    },
  ];

  it('answers a repeat of every stock write with the first answer and writes nothing twice', async () => {
    for (const c of cases) {
      const { method, url, body } = await c.request();
      const key = newKey();
      const first = await send(t, s.cookie, method, url, body, key);
      expect(first.statusCode, `${c.operationId}: ${first.body}`).toBeLessThan(300);
      const written = await movementCount(t, s.tenantId);
      for (let again = 0; again < 2; again++) {
        const repeat = await send(t, s.cookie, method, url, body, key);
        expect(repeat.statusCode, c.operationId).toBe(first.statusCode);
        expect(repeat.body, c.operationId).toBe(first.body);
        expect(repeat.headers[REPLAYED_HEADER], c.operationId).toBe('true');
        expect(await movementCount(t, s.tenantId), c.operationId).toBe(written);
      }
    }
    // One Lake Cabin was made and deleted, one Annex made, one Empty Shed made and deleted: no twin.
    const [made] = await queryRows<{ units: number; garages: number }>(
      t.database.db,
      sql`select (select count(*)::int from units where tenant_id = ${s.tenantId}) as units,
                 (select count(*)::int from garages where tenant_id = ${s.tenantId}) as garages`,
    );
    expect(made).toEqual({ units: 1, garages: 2 });
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('takes the key on exactly the stock writes, and lists it in the API document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { operationId: string; parameters?: { in: string; name: string }[]; responses: Record<string, unknown> }>>;
    };
    const withKey = Object.values(doc.paths)
      .flatMap((item) => Object.values(item))
      .filter((op) => op.parameters?.some((p) => p.in === 'header' && p.name === 'idempotency-key'));
    const tested = new Set([...cases.map((c) => c.operationId.split(' ')[0]!), 'saveOnboardingGarage', 'saveOnboardingUnits']);
    expect(new Set(withKey.map((op) => op.operationId))).toEqual(tested);
    for (const op of withKey) expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['409', '422']));
  });

  it('keeps each company’s keys apart', async () => {
    const other = await stockTenant(t, `keys-other-${backend}@example.com`);
    await api(t, other.cookie, 'PUT', `/api/garages/${other.garageId}/inventory`, { inventory: [{ item_id: other.itemIds['Bath Towel']!, quantity: 10 }] });
    const key = newKey();
    const mine = await send(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${towel}/transfer`, { quantity: 1 }, key);
    expect(mine.statusCode).toBe(200);
    const before = await movementCount(t, other.tenantId);
    const theirs = await send(t, other.cookie, 'POST', `/api/units/${other.unitId}/inventory/${other.itemIds['Bath Towel']}/transfer`, { quantity: 1 }, key);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.headers[REPLAYED_HEADER]).toBeUndefined();
    expect(await movementCount(t, other.tenantId)).toBe(before + 2);
    expect(theirs.json().unit_quantity).toBe(1);
  });

  it('refuses a key sent again with another body, writing nothing', async () => {
    const key = newKey();
    const url = `/api/units/${s.unitId}/inventory/${towel}/transfer`;
    expect((await send(t, s.cookie, 'POST', url, { quantity: 1 }, key)).statusCode).toBe(200);
    const written = await movementCount(t, s.tenantId);
    const other = await send(t, s.cookie, 'POST', url, { quantity: 2 }, key);
    expect(other.statusCode).toBe(422);
    expect(other.json().error).toEqual({ code: 'IDEMPOTENCY_KEY_REUSED', message: 'This Idempotency-Key was already used for a different request. Send a new key.' });
    const elsewhere = await send(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${towel}/consume`, { quantity: 1 }, key);
    expect(elsewhere.statusCode).toBe(422);
    expect(await movementCount(t, s.tenantId)).toBe(written);
  });

  it('lets a refused write be sent again with its key once the refusal is gone', async () => {
    const key = newKey();
    const url = `/api/units/${s.unitId}/inventory/${towel}/transfer`;
    const garages = (await api(t, s.cookie, 'GET', '/api/garages')).json() as { id: string; inventory: { item_id: string; quantity: number }[] }[];
    const held = garages.find((g) => g.id === s.garageId)!.inventory.find((r) => r.item_id === towel)!.quantity;
    const body = { quantity: held + 5 };
    const refused = await send(t, s.cookie, 'POST', url, body, key);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe('Not enough stock available in garage');
    expect(await api(t, s.cookie, 'PUT', `/api/garages/${s.garageId}/inventory`, { inventory: [{ item_id: towel, quantity: held + 5 }, { item_id: pods, quantity: 500 }] })).toMatchObject({ statusCode: 200 });
    const before = await movementCount(t, s.tenantId);
    const sent = await send(t, s.cookie, 'POST', url, body, key);
    expect(sent.statusCode).toBe(200);
    expect(sent.headers[REPLAYED_HEADER]).toBeUndefined();
    expect(await movementCount(t, s.tenantId)).toBe(before + 2);
    expect((await send(t, s.cookie, 'POST', url, body, key)).headers[REPLAYED_HEADER]).toBe('true');
    expect(await movementCount(t, s.tenantId)).toBe(before + 2);
    // The garage is stocked again for the tests that follow.
    expect(await api(t, s.cookie, 'PUT', `/api/garages/${s.garageId}/inventory`, { inventory: [{ item_id: towel, quantity: 500 }, { item_id: pods, quantity: 500 }] })).toMatchObject({ statusCode: 200 });
  });

  it('refuses keys that are empty, too long or not printable ASCII, naming the header', async () => {
    const url = `/api/units/${s.unitId}/inventory/${towel}/consume`;
    const before = await movementCount(t, s.tenantId);
    for (const [key, message] of [
      ['', 'Idempotency-Key must not be empty'],
      ['x'.repeat(256), 'Idempotency-Key must be at most 255 characters'],
      ['caf\u00e9-key', 'Idempotency-Key must be printable ASCII characters'],
    ] as const) {
      const res = await send(t, s.cookie, 'POST', url, { quantity: 1 }, key);
      expect(res.statusCode, key).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'VALIDATION', message });
    }
    expect(await movementCount(t, s.tenantId)).toBe(before);
    // The draft's form, a quoted string, is the same key as the bare one.
    const quoted = await send(t, s.cookie, 'POST', url, { quantity: 1 }, '"quoted-key-1"');
    expect(quoted.statusCode).toBe(200);
    const bare = await send(t, s.cookie, 'POST', url, { quantity: 1 }, 'quoted-key-1');
    expect(bare.headers[REPLAYED_HEADER]).toBe('true');
  });

  it('forgets a key after 24 hours, and says what to do about one whose answer was never stored', async () => {
    const url = `/api/units/${s.unitId}/inventory/${towel}/transfer`;
    const key = newKey();
    expect((await send(t, s.cookie, 'POST', url, { quantity: 1 }, key)).statusCode).toBe(200);
    await t.database.db.execute(sql`update idempotency_keys set created_at = now() - interval '24 hours 1 minute' where tenant_id = ${s.tenantId} and key = ${key}`);
    const before = await movementCount(t, s.tenantId);
    const later = await send(t, s.cookie, 'POST', url, { quantity: 1 }, key);
    expect(later.headers[REPLAYED_HEADER]).toBeUndefined();
    expect(await movementCount(t, s.tenantId)).toBe(before + 2);

    // A claim still being written answers 409 IDEMPOTENCY_KEY_IN_USE with Retry-After; one left
    // without an answer for longer than a write can take answers 409 CONFLICT.
    const sentKey = newKey();
    expect((await send(t, s.cookie, 'POST', url, { quantity: 1 }, sentKey)).statusCode).toBe(200);
    await t.database.db.execute(sql`update idempotency_keys set status = null, body = null where tenant_id = ${s.tenantId} and key = ${sentKey}`);
    const busy = await send(t, s.cookie, 'POST', url, { quantity: 1 }, sentKey);
    expect(busy.statusCode).toBe(409);
    expect(busy.headers['retry-after']).toBe('1');
    expect(busy.json().error).toEqual({ code: 'IDEMPOTENCY_KEY_IN_USE', message: 'This change is still being saved. Try again in a moment.' });
    await t.database.db.execute(
      sql`update idempotency_keys set created_at = now() - make_interval(secs => ${ABANDONED_CLAIM_SECONDS + 1}) where tenant_id = ${s.tenantId} and key = ${sentKey}`,
    );
    const abandoned = await send(t, s.cookie, 'POST', url, { quantity: 1 }, sentKey);
    expect(abandoned.statusCode).toBe(409);
    expect(abandoned.json().error).toEqual({ code: 'CONFLICT', message: 'The server stopped while this change was being saved. Check the stock before sending it again.' });
  });

  it('writes once when the same request is sent several times at the same moment', async () => {
    const url = `/api/units/${s.unitId}/inventory/${towel}/transfer`;
    for (let round = 0; round < 5; round++) {
      const key = newKey();
      const before = await movementCount(t, s.tenantId);
      const answers = await Promise.all(Array.from({ length: 6 }, () => send(t, s.cookie, 'POST', url, { quantity: 1 }, key)));
      // The first writes; the others get its answer or are told it is still being saved.
      const ok = answers.filter((a) => a.statusCode === 200);
      expect(ok.length).toBeGreaterThanOrEqual(1);
      expect(ok.filter((a) => a.headers[REPLAYED_HEADER] === undefined)).toHaveLength(1);
      expect(new Set(ok.map((a) => a.body)).size).toBe(1);
      for (const a of answers.filter((x) => x.statusCode !== 200)) expect(a.json().error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
      expect(await movementCount(t, s.tenantId)).toBe(before + 2);
    }
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('claims keys in the write itself for the plus and minus taps: a batch of keys written once, sent again all replayed', async () => {
    // Keys with the characters an array literal must escape, on the taps (claimed in their write)
    // and on a count (claimed before its handler).
    const odd = ['a"b', 'c\\d', 'e,f', '{g}', 'NULL', ' h '].map((k) => `${k}-${backend}`);
    const taps = odd.map((key, i) => ({
      key,
      url: `/api/units/${s.unitId}/inventory/${towel}/${i % 2 === 0 ? 'transfer' : 'consume'}`,
      body: { quantity: 1 + (i % 3) },
    }));
    const before = await movementCount(t, s.tenantId);
    const first = await Promise.all(taps.map((tap) => send(t, s.cookie, 'POST', tap.url, tap.body, tap.key)));
    for (const a of first) expect(a.statusCode, a.body).toBe(200);
    // Three transfers (two rows each) and three consumptions (one each, the unit holds plenty).
    expect(await movementCount(t, s.tenantId)).toBe(before + 9);
    const again = await Promise.all(taps.map((tap) => send(t, s.cookie, 'POST', tap.url, tap.body, tap.key)));
    again.forEach((a, i) => {
      expect(a.headers[REPLAYED_HEADER], taps[i]!.key).toBe('true');
      expect(a.body, taps[i]!.key).toBe(first[i]!.body);
    });
    expect(await movementCount(t, s.tenantId)).toBe(before + 9);

    const expected = await unitQuantity(t, s, s.unitId, towel);
    const count = { lines: [{ item_id: towel, expected, counted: expected }] };
    const counted = await send(t, s.cookie, 'POST', `/api/units/${s.unitId}/count`, count, odd[0]);
    expect(counted.statusCode).toBe(422);
    const countKey = `count ${odd.join('')}`;
    expect((await send(t, s.cookie, 'POST', `/api/units/${s.unitId}/count`, count, countKey)).statusCode).toBe(200);
    expect((await send(t, s.cookie, 'POST', `/api/units/${s.unitId}/count`, count, countKey)).headers[REPLAYED_HEADER]).toBe('true');
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('writes a minus tap sent several times at the same moment once', async () => {
    const url = `/api/units/${s.unitId}/inventory/${towel}/consume`;
    for (let round = 0; round < 3; round++) {
      const key = newKey();
      const before = await movementCount(t, s.tenantId);
      const answers = await Promise.all(Array.from({ length: 6 }, () => send(t, s.cookie, 'POST', url, { quantity: 1 }, key)));
      const ok = answers.filter((a) => a.statusCode === 200);
      expect(ok.filter((a) => a.headers[REPLAYED_HEADER] === undefined)).toHaveLength(1);
      expect(new Set(ok.map((a) => a.body)).size).toBe(1);
      for (const a of answers.filter((x) => x.statusCode !== 200)) expect(a.json().error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
      expect(await movementCount(t, s.tenantId)).toBe(before + 1);
    }
  });

  it('claims Restock to minimum’s keys in its write: one unit asked by several keys at once, each answered once and replayed', async () => {
    const url = `/api/units/${s.unitId}/restock-to-minimum`;
    const low = async () => {
      // Below its minimum again, so that each round has something to fill.
      const inventory = (await api(t, s.cookie, 'GET', `/api/units/${s.unitId}`)).json() as { inventory: { item_id: string; quantity: number }[] };
      const quantity = inventory.inventory.find((r) => r.item_id === towel)!.quantity;
      if (quantity > 0) expect((await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${towel}/consume`, { quantity })).statusCode).toBe(200);
    };
    await low();
    // Four keys for one unit at the same moment: one fills it, the others are written after it
    // (the unit once a batch) and find nothing left to fill; one key sent three times writes once.
    const keys = [newKey(), newKey(), newKey(), newKey()];
    const before = await movementCount(t, s.tenantId);
    const sentKeys = [...keys, keys[0]!, keys[0]!];
    const answers = await Promise.all(sentKeys.map((key) => send(t, s.cookie, 'POST', url, {}, key)));
    for (const a of answers) expect([200, 409], a.body).toContain(a.statusCode);
    const fresh = answers.filter((a) => a.statusCode === 200 && a.headers[REPLAYED_HEADER] === undefined);
    expect(fresh).toHaveLength(4);
    const firstBody = new Map(answers.flatMap((a, i) => (fresh.includes(a) ? [[sentKeys[i]!, a.body] as const] : [])));
    expect(firstBody.size).toBe(4);
    const filled = fresh.filter((a) => (a.json() as { moved: unknown[] }).moved.length > 0);
    expect(filled).toHaveLength(1);
    const written = await movementCount(t, s.tenantId);
    expect(written).toBeGreaterThan(before);
    const [stored] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from idempotency_keys where tenant_id = ${s.tenantId} and key = any(${`{${keys.join(',')}}`}::text[]) and status = 200`,
    );
    expect(stored!.n).toBe(4);
    const again = await Promise.all(keys.map((key) => send(t, s.cookie, 'POST', url, {}, key)));
    again.forEach((a, i) => {
      expect(a.headers[REPLAYED_HEADER]).toBe('true');
      expect(a.body).toBe(firstBody.get(keys[i]!));
    });
    expect(await movementCount(t, s.tenantId)).toBe(written);
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('answers a transfer that opened the unit’s row once, and releases the key of a refused one', async () => {
    const other = await stockTenant(t, `keys-new-row-${backend}@example.com`);
    const soap = other.itemIds['Coffee Pods']!;
    await api(t, other.cookie, 'PUT', `/api/garages/${other.garageId}/inventory`, { inventory: [{ item_id: soap, quantity: 4 }] });
    // The unit holds no row of the item, so the transfer opens it (in a transaction of its own).
    expect((await api(t, other.cookie, 'DELETE', `/api/units/${other.unitId}/inventory/${soap}`)).statusCode).toBeLessThan(300);
    const [rows] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from unit_inventory where tenant_id = ${other.tenantId} and unit_id = ${other.unitId} and item_id = ${soap}`);
    expect(rows!.n).toBe(0);
    const url = `/api/units/${other.unitId}/inventory/${soap}/transfer`;
    const refusedKey = newKey();
    const refused = await send(t, other.cookie, 'POST', url, { quantity: 5 }, refusedKey);
    expect(refused.statusCode).toBe(409);
    const [left] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from idempotency_keys where tenant_id = ${other.tenantId} and key = ${refusedKey}`);
    expect(left!.n).toBe(0);
    const key = newKey();
    const first = await send(t, other.cookie, 'POST', url, { quantity: 3 }, key);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ unit_quantity: 3, garage_quantity: 1 });
    const before = await movementCount(t, other.tenantId);
    const repeat = await send(t, other.cookie, 'POST', url, { quantity: 3 }, key);
    expect(repeat.headers[REPLAYED_HEADER]).toBe('true');
    expect(repeat.body).toBe(first.body);
    expect(await movementCount(t, other.tenantId)).toBe(before);
  });

  it('makes an onboarding step sent twice with its key make one garage and one set of properties', async () => {
    const cookie = await signUpAndSignIn(t, `keys-onboarding-${backend}@example.com`);
    expect((await api(t, cookie, 'POST', '/api/onboarding/company', { company_name: 'Twice Rentals' })).statusCode).toBe(201);
    expect((await api(t, cookie, 'POST', '/api/onboarding/items', { items: [{ name: 'Soap', category: 'Bath' }] })).statusCode).toBe(200);
    const garageKey = newKey();
    const unitsKey = newKey();
    for (let i = 0; i < 2; i++) {
      expect((await send(t, cookie, 'POST', '/api/onboarding/garage', { name: 'Depot', address: '1 Road' }, garageKey)).statusCode).toBe(200);
      expect((await send(t, cookie, 'POST', '/api/onboarding/units', { units: [{ name: 'Cottage', address: '2 Lane' }] }, unitsKey)).statusCode).toBe(200);
    }
    expect((await api(t, cookie, 'GET', '/api/garages')).json()).toHaveLength(1);
    expect((await api(t, cookie, 'GET', '/api/units')).json()).toHaveLength(1);
  });
});
