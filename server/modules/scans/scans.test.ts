/**
 * The AI photo scanner through the API (docs/product.md "Screens: AI photo scanner", decision 035): the
 * photo re-encoded without its location and refused when it is not a usable image, the vision
 * call against the fake OpenAI-compatible server (structured replies, free text, garbage, unknown
 * ids, slow replies), and applying: real transfers from the unit's garage that keep the ledger
 * invariant, all or nothing, once, each ledger row pointing to its scan; other companies' scans
 * and photos are 404.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { scanMessages } from '../../../common/contracts/scans';
import { queryRows } from '../../db/client';
import { allowedItemIds, startFakeOpenAi, type ContentPart, type FakeOpenAi } from '../../test/fake-openai';
import { api, backends, createTestApp, type TestApp } from '../../test/harness';
import { hugePngHeader, jpegWithLocation, photoUpload } from '../../test/scan-photos';
import { ledgerMismatches, stockTenant, type StockTenant } from '../../test/stock-fixtures';

const KEY = 'sk-test-scanner';

/** Sends `file` as the photo of `unitId`. */
function sendPhoto(t: TestApp, cookie: string, unitId: string, file: Buffer, filename?: string, type?: string) {
  const { payload, contentType } = photoUpload(file, filename, type);
  return t.app.inject({ method: 'POST', url: `/api/units/${unitId}/scans`, headers: { cookie, 'content-type': contentType }, payload });
}

/** The structured reply of a model that saw `counts`. */
const structured = (counts: { item_id: string; quantity: number; confidence: number }[]) => JSON.stringify({ items: counts });

describe.each(backends)('photo scanner on %s', (backend) => {
  let t: TestApp;
  let fake: FakeOpenAi;
  let photo: Buffer;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    t = await createTestApp(backend, {
      env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: fake.url, OPENAI_TIMEOUT_MS: '400', OPENAI_SCANS_PER_MINUTE: '1000', SCAN_PHOTO_MAX_BYTES: String(2 * 1024 * 1024) },
    });
    photo = await jpegWithLocation();
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  afterEach(() => {
    fake.mode = 'ok';
  });

  /** A tenant whose garage holds 10 towels and 20 pods. */
  const stocked = async (email: string): Promise<StockTenant> => {
    const s = await stockTenant(t, email);
    const inventory = [
      { item_id: s.itemIds['Bath Towel']!, quantity: 10 },
      { item_id: s.itemIds['Coffee Pods']!, quantity: 20 },
    ];
    expect((await api(t, s.cookie, 'PUT', `/api/garages/${s.garageId}/inventory`, { inventory })).statusCode).toBe(200);
    return s;
  };
  const quantities = async (s: StockTenant) => {
    const rows = await queryRows<{ kind: string; name: string; quantity: number }>(
      t.database.db,
      sql`select 'unit' as kind, i.name, s.quantity from unit_inventory s join items i on i.id = s.item_id where s.tenant_id = ${s.tenantId}
          union all
          select 'garage', i.name, g.quantity from garage_inventory g join items i on i.id = g.item_id where g.tenant_id = ${s.tenantId}`,
    );
    return Object.fromEntries(rows.map((r) => [`${r.kind} ${r.name}`, Number(r.quantity)]));
  };
  const ledgerOf = (s: StockTenant) =>
    queryRows<{ n: number; total: number }>(
      t.database.db,
      sql`select count(*)::int as n, coalesce(sum(quantity_change), 0)::int as total from inventory_logs where tenant_id = ${s.tenantId}`,
    );
  const scanCount = async (s: StockTenant) =>
    (await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from scans where tenant_id = ${s.tenantId}`))[0]!.n;
  /** Scans the photo with the model seeing `counts`; returns the answer's body. */
  const scanned = async (s: StockTenant, counts: { item_id: string; quantity: number; confidence: number }[]) => {
    fake.reply = structured(counts);
    const res = await sendPhoto(t, s.cookie, s.unitId, photo);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { id: string; photo_url: string; items: { item_id: string; quantity: number }[] };
  };

  it('says it is configured and sends the model the company’s items, the photo at detail high, 1000 tokens and a strict schema', async () => {
    const s = await stocked('ask@example.com');
    expect((await api(t, s.cookie, 'GET', '/api/scanner')).json()).toEqual({ configured: true, max_photo_bytes: 2 * 1024 * 1024 });
    const towel = s.itemIds['Bath Towel']!;
    const pods = s.itemIds['Coffee Pods']!;
    fake.reply = structured([
      { item_id: towel, quantity: 2.6, confidence: 1.7 },
      { item_id: randomUUID(), quantity: 4, confidence: 0.9 },
      { item_id: pods, quantity: 14, confidence: -0.2 },
    ]);
    const res = await sendPhoto(t, s.cookie, s.unitId, photo);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.items).toEqual([
      { item_id: towel, name: 'Bath Towel', quantity: 3, confidence: 1, second_look: false, available_in_garage: 10 },
      { item_id: pods, name: 'Coffee Pods', quantity: 14, confidence: 0, second_look: true, available_in_garage: 20 },
    ]);
    expect(body.garage).toEqual({ id: s.garageId, name: 'Main Storage' });
    expect(body.unit_id).toBe(s.unitId);

    const sent = fake.requests.at(-1)!;
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.body.model).toBe('gpt-4o-mini');
    expect(sent.body.max_tokens).toBe(1000);
    expect(sent.body.response_format?.type).toBe('json_schema');
    expect(sent.body.response_format?.json_schema?.strict).toBe(true);
    expect(allowedItemIds(sent.body).sort()).toEqual([towel, pods].sort());
    const system = sent.body.messages[0]!.content as string;
    expect(system).toContain(`${towel} | Bath Towel | Linen`);
    const image = (sent.body.messages[1]!.content as ContentPart[]).find((p) => p.type === 'image_url') as Extract<ContentPart, { type: 'image_url' }>;
    expect(image.image_url.detail).toBe('high');
    expect(image.image_url.url.startsWith('data:image/jpeg;base64,')).toBe(true);

    // What the model saw and what is kept: at most 800 px wide, JPEG, without EXIF or GPS.
    for (const jpeg of [Buffer.from(image.image_url.url.split(',')[1]!, 'base64'), (await api(t, s.cookie, 'GET', body.photo_url)).rawPayload]) {
      const meta = await sharp(jpeg).metadata();
      expect(meta).toMatchObject({ format: 'jpeg', width: 800, height: 600 });
      expect(meta.exif).toBeUndefined();
    }
    const served = await api(t, s.cookie, 'GET', body.photo_url);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.headers['cache-control']).toContain('private');
  });

  it('reads the first bracketed array of a free-text reply, and refuses garbage, nothing matching and a slow model, storing nothing', async () => {
    const s = await stocked('reply@example.com');
    const towel = s.itemIds['Bath Towel']!;
    fake.reply = `Sure! Here is what I see:\n[{"item_id": "${towel}", "name": "Bath Towel", "quantity": "5", "confidence": 0.8}]\nHope it helps.`;
    const free = await sendPhoto(t, s.cookie, s.unitId, photo);
    expect(free.statusCode, free.body).toBe(200);
    expect(free.json().items).toMatchObject([{ item_id: towel, quantity: 5, confidence: 0.8 }]);
    const before = await scanCount(s);

    fake.reply = 'I cannot see any towels here, sorry.';
    const garbage = await sendPhoto(t, s.cookie, s.unitId, photo);
    expect(garbage.statusCode).toBe(502);
    expect(garbage.json().error).toMatchObject({ code: 'PROVIDER_ERROR', message: scanMessages.noJson });

    fake.reply = structured([{ item_id: randomUUID(), quantity: 3, confidence: 0.9 }]);
    const unknown = await sendPhoto(t, s.cookie, s.unitId, photo);
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().error).toEqual({ code: 'NOTHING_DETECTED', message: 'No matching items found in the image' });

    fake.reply = `[{"item_id": "${towel}", "quantity": 2}]`;
    expect((await sendPhoto(t, s.cookie, s.unitId, photo)).json().error.code).toBe('NOTHING_DETECTED');

    fake.mode = 'slow';
    fake.delayMs = 2_000;
    const slow = await sendPhoto(t, s.cookie, s.unitId, photo);
    expect(slow.statusCode).toBe(502);
    expect(slow.json().error.message).toBe('Failed to analyze image: no answer within 0.4 s. Please try again.');

    fake.mode = 'error';
    expect((await sendPhoto(t, s.cookie, s.unitId, photo)).json().error).toEqual({ code: 'PROVIDER_ERROR', message: 'Failed to analyze image. Please try again.' });
    expect(await scanCount(s)).toBe(before);
  });

  it('refuses a 30 MB upload, a PDF named .jpg, an empty file, a 20,000 × 20,000 image and a body that is not multipart', async () => {
    const s = await stocked('bad-photo@example.com');
    fake.reply = structured([{ item_id: s.itemIds['Bath Towel']!, quantity: 1, confidence: 1 }]);
    const asked = fake.requests.length;
    const huge = await sendPhoto(t, s.cookie, s.unitId, Buffer.alloc(30 * 1024 * 1024, 0xff));
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: 'Failed to process image: the photo is larger than 2 MB.' });
    const pdf = await sendPhoto(t, s.cookie, s.unitId, Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n'), 'shelf.jpg');
    expect(pdf.statusCode).toBe(400);
    expect(pdf.json().error.message).toBe('Failed to process image: the file is not a JPEG, PNG, WebP, AVIF, HEIF, TIFF or GIF image.');
    const empty = await sendPhoto(t, s.cookie, s.unitId, Buffer.alloc(0));
    expect(empty.json().error).toEqual({ code: 'VALIDATION', message: 'Failed to process image: the file is empty.' });
    const giant = await sendPhoto(t, s.cookie, s.unitId, hugePngHeader(20_000), 'giant.png', 'image/png');
    expect(giant.statusCode).toBe(400);
    expect(giant.json().error.message).toBe('Failed to process image: it has more than 50 million pixels. Take a smaller photo.');
    const json = await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/scans`, { photo: 'data:image/jpeg;base64,AAAA' });
    expect(json.statusCode).toBe(400);
    const none = await t.app.inject({
      method: 'POST',
      url: `/api/units/${s.unitId}/scans`,
      headers: { cookie: s.cookie, 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x--\r\n',
    });
    expect(none.statusCode).toBe(400);
    expect(fake.requests.length).toBe(asked);
    expect(await scanCount(s)).toBe(0);
  });

  it('applies a restock as scan transfers from the unit’s garage, with the confirmed quantities, each ledger row pointing to the scan', async () => {
    const s = await stocked('apply@example.com');
    const towel = s.itemIds['Bath Towel']!;
    const pods = s.itemIds['Coffee Pods']!;
    const scan = await scanned(s, [
      { item_id: towel, quantity: 4, confidence: 0.9 },
      { item_id: pods, quantity: 12, confidence: 0.6 },
    ]);
    // The user corrected the pods to 15 and removed nothing.
    const res = await api(t, s.cookie, 'POST', `/api/scans/${scan.id}/apply`, {
      mode: 'restock',
      items: [
        { item_id: towel, quantity: 4 },
        { item_id: pods, quantity: 15 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      scan_id: scan.id,
      mode: 'restock',
      applied: [
        { item_id: towel, item_name: 'Bath Towel', quantity: 4, unit_quantity: 4, garage_quantity: 6 },
        { item_id: pods, item_name: 'Coffee Pods', quantity: 15, unit_quantity: 15, garage_quantity: 5 },
      ],
    });
    expect(await quantities(s)).toEqual({ 'unit Bath Towel': 4, 'unit Coffee Pods': 15, 'garage Bath Towel': 6, 'garage Coffee Pods': 5 });
    const rows = await queryRows<{ type: string; quantity_change: number; source_type: string; transfer_id: string | null; scan_id: string | null }>(
      t.database.db,
      sql`select type, quantity_change, source_type, transfer_id, scan_id from inventory_logs where tenant_id = ${s.tenantId} and scan_id is not null order by item_id, source_type`,
    );
    expect(rows).toHaveLength(4);
    expect(rows.every((r) => r.type === 'scan' && r.scan_id === scan.id && r.transfer_id !== null)).toBe(true);
    expect(new Set(rows.map((r) => r.transfer_id)).size).toBe(2);
    expect(rows.reduce((sum, r) => sum + Number(r.quantity_change), 0)).toBe(0);
    expect(await ledgerMismatches(t)).toEqual([]);
    // Other stock changes in later transactions on the same connections carry no scan id.
    await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${towel}/consume`);
    const [last] = await queryRows<{ scan_id: string | null }>(
      t.database.db,
      sql`select scan_id from inventory_logs where tenant_id = ${s.tenantId} and type = 'consumption'`,
    );
    expect(last!.scan_id).toBeNull();
  });

  it('applies nothing when one item exceeds the garage or is absent from it, naming them', async () => {
    const s = await stocked('short@example.com');
    const towel = s.itemIds['Bath Towel']!;
    const pods = s.itemIds['Coffee Pods']!;
    const scan = await scanned(s, [
      { item_id: towel, quantity: 4, confidence: 0.9 },
      { item_id: pods, quantity: 2, confidence: 0.9 },
    ]);
    const before = { stock: await quantities(s), ledger: await ledgerOf(s) };
    const res = await api(t, s.cookie, 'POST', `/api/scans/${scan.id}/apply`, {
      mode: 'restock',
      items: [
        { item_id: towel, quantity: 11 },
        { item_id: pods, quantity: 2 },
      ],
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe('Some items exceed available garage stock: Bath Towel');
    // An item the garage has no row of counts as exceeding.
    expect((await api(t, s.cookie, 'PUT', `/api/garages/${s.garageId}/inventory`, { inventory: [{ item_id: pods, quantity: 20 }] })).statusCode).toBe(200);
    const absent = await api(t, s.cookie, 'POST', `/api/scans/${scan.id}/apply`, { mode: 'restock', items: [{ item_id: towel, quantity: 1 }, { item_id: pods, quantity: 21 }] });
    expect(absent.json().error.message).toBe('Some items exceed available garage stock: Bath Towel, Coffee Pods');
    const after = await quantities(s);
    expect(after).toEqual({ ...before.stock, 'garage Coffee Pods': 20, 'garage Bath Towel': undefined });
    // The refused apply left the scan open: a fitting one goes through.
    const ok = await api(t, s.cookie, 'POST', `/api/scans/${scan.id}/apply`, { mode: 'restock', items: [{ item_id: pods, quantity: 2 }] });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('applies a scan once: of two concurrent applies one writes, the other is refused; a retry too', async () => {
    const s = await stocked('once@example.com');
    const towel = s.itemIds['Bath Towel']!;
    const scan = await scanned(s, [{ item_id: towel, quantity: 3, confidence: 0.9 }]);
    const body = { mode: 'restock', items: [{ item_id: towel, quantity: 3 }] };
    const both = await Promise.all([1, 2].map(() => api(t, s.cookie, 'POST', `/api/scans/${scan.id}/apply`, body)));
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.statusCode === 409)!.json().error).toEqual({ code: 'CONFLICT', message: 'These counts were already applied.' });
    const retry = await api(t, s.cookie, 'POST', `/api/scans/${scan.id}/apply`, body);
    expect(retry.statusCode).toBe(409);
    expect(await quantities(s)).toMatchObject({ 'unit Bath Towel': 3, 'garage Bath Towel': 7 });
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('adds the pieces as received stock when the unit has no garage', async () => {
    const s = await stocked('no-garage@example.com');
    await queryRows(t.database.db, sql`update units set garage_id = null where tenant_id = ${s.tenantId}`);
    const towel = s.itemIds['Bath Towel']!;
    const scan = await scanned(s, [{ item_id: towel, quantity: 2, confidence: 0.7 }]);
    expect(scan.items[0]).toMatchObject({ available_in_garage: null });
    const res = await api(t, s.cookie, 'POST', `/api/scans/${scan.id}/apply`, { mode: 'restock', items: [{ item_id: towel, quantity: 2 }] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().applied).toEqual([{ item_id: towel, item_name: 'Bath Towel', quantity: 2, unit_quantity: 2, garage_quantity: null }]);
    const rows = await queryRows<{ type: string; scan_id: string }>(
      t.database.db,
      sql`select type, scan_id from inventory_logs where tenant_id = ${s.tenantId} and scan_id is not null`,
    );
    expect(rows).toEqual([{ type: 'external_addition', scan_id: scan.id }]);
    expect(await quantities(s)).toMatchObject({ 'unit Bath Towel': 2, 'garage Bath Towel': 10 });
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('refuses bad confirmations with a clear message and changes nothing; another company’s scan and photo are 404', async () => {
    const s = await stocked('bad-apply@example.com');
    const other = await stocked('other@example.com');
    const towel = s.itemIds['Bath Towel']!;
    const scan = await scanned(s, [{ item_id: towel, quantity: 3, confidence: 0.9 }]);
    const theirs = await scanned(other, [{ item_id: other.itemIds['Bath Towel']!, quantity: 1, confidence: 0.9 }]);
    const before = { mine: await ledgerOf(s), theirs: await ledgerOf(other) };
    const apply = (body: unknown, id = scan.id) => api(t, s.cookie, 'POST', `/api/scans/${id}/apply`, body);
    const message = async (body: unknown) => {
      const res = await apply(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      const { error } = res.json();
      return [error.message, ...(error.issues ?? []).map((i: { message: string }) => i.message)].join(' | ');
    };
    expect(await message({ mode: 'restock', items: [{ item_id: towel, quantity: 1e9 }] })).toContain('Quantity must be at most 1,000,000');
    expect(await message({ mode: 'restock', items: [{ item_id: towel, quantity: 0 }] })).toContain('Quantity must be at least 1');
    expect(await message({ mode: 'restock', items: [{ item_id: towel, quantity: -3 }] })).toContain('Quantity must be at least 1');
    expect(await message({ mode: 'restock', items: [{ item_id: towel, quantity: 1.5 }] })).toContain('Quantity must be a whole number');
    expect(await message({ mode: 'restock', items: [] })).toContain('Confirm at least one item');
    expect(await message({ mode: 'restock', items: [{ item_id: towel, quantity: 1 }, { item_id: towel, quantity: 1 }] })).toContain('Each item can appear only once');
    expect(await message({ mode: 'borrow', items: [{ item_id: towel, quantity: 1 }] })).toContain('Mode must be restock');
    expect(await message({ mode: 'restock', items: [{ item_id: other.itemIds['Bath Towel']!, quantity: 1 }] })).toContain(
      'This item was not found in this photo',
    );
    const foreign = await apply({ mode: 'restock', items: [{ item_id: other.itemIds['Bath Towel']!, quantity: 1 }] }, theirs.id);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toEqual({ code: 'NOT_FOUND', message: 'Scan not found' });
    expect((await api(t, s.cookie, 'GET', theirs.photo_url)).statusCode).toBe(404);
    expect((await sendPhoto(t, s.cookie, other.unitId, photo)).statusCode).toBe(404);
    expect({ mine: await ledgerOf(s), theirs: await ledgerOf(other) }).toEqual(before);
    // And the company's own still applies.
    expect((await apply({ mode: 'restock', items: [{ item_id: towel, quantity: 1 }] })).statusCode).toBe(200);
  });
});

describe('photo scanner limits', () => {
  it('says plainly that it is not configured without OPENAI_API_KEY, and calls nothing', async () => {
    const t = await createTestApp('pglite');
    try {
      const s = await stockTenant(t, 'unconfigured@example.com');
      expect((await api(t, s.cookie, 'GET', '/api/scanner')).json()).toEqual({ configured: false, max_photo_bytes: 10 * 1024 * 1024 });
      const res = await sendPhoto(t, s.cookie, s.unitId, await jpegWithLocation(40, 30));
      expect(res.statusCode).toBe(503);
      expect(res.json().error).toEqual({ code: 'SCANNER_NOT_CONFIGURED', message: scanMessages.notConfigured });
    } finally {
      await t.close();
    }
  });

  it('lets a company send OPENAI_SCANS_PER_MINUTE photos a minute, and another company its own', async () => {
    const fake = await startFakeOpenAi();
    const t = await createTestApp('pglite', { env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: fake.url, OPENAI_SCANS_PER_MINUTE: '2' } });
    try {
      const a = await stockTenant(t, 'limit-a@example.com');
      const b = await stockTenant(t, 'limit-b@example.com');
      fake.reply = (body) => structured(allowedItemIds(body).map((item_id) => ({ item_id, quantity: 1, confidence: 0.5 })));
      const small = await jpegWithLocation(40, 30);
      const codes = [];
      for (let k = 0; k < 3; k++) codes.push((await sendPhoto(t, a.cookie, a.unitId, small)).statusCode);
      expect(codes).toEqual([200, 200, 429]);
      const refused = await sendPhoto(t, a.cookie, a.unitId, small);
      expect(refused.json().error).toEqual({ code: 'RATE_LIMITED', message: 'Photo scan limit reached (2 a minute for your company). Please try again in a minute.' });
      expect((await sendPhoto(t, b.cookie, b.unitId, small)).statusCode).toBe(200);
      expect(fake.requests).toHaveLength(3);
    } finally {
      await t.close();
      await fake.close();
    }
  });
});
