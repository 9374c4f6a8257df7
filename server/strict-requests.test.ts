/**
 * Strict bodies and queries (docs/api.md "Unknown fields"): every operation of the served API
 * document, signed in as a tenant owner, answered a request that is valid but for one field it
 * does not take — a JSON body (its own example) with one more property, a query with one more
 * parameter — with a 400 VALIDATION that names the field, and wrote nothing. The document says
 * the same: every object of a request body is closed (`additionalProperties: false`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestExamples } from './lib/api-examples';
import { APP_URL, createTestApp, type TestApp } from './test/harness';
import { ledgerMismatches, stockTenant, type StockTenant } from './test/stock-fixtures';

interface Operation {
  operationId: string;
  requestBody?: { content?: Record<string, { schema: unknown; example?: unknown }> };
}
interface Document {
  components: { schemas: Record<string, unknown> };
  paths: Record<string, Record<string, Operation>>;
}

/** The operations the server does not define itself: better-auth's, whose bodies and queries are its own. */
const foreign = (path: string) => path.startsWith('/api/auth/');

/** Stripe's and Hostaway's webhooks: they take what those services send (server/lib/strict-queries.ts). */
const inbound = new Set(['receiveBillingEvent', 'hostawayWebhook']);

/** Every object schema under `schema` (following the document's `$ref`s once) that lets unknown properties through, by its path. */
function openObjects(schema: unknown, doc: Document, at: string, seen = new Set<string>()): string[] {
  if (Array.isArray(schema)) return schema.flatMap((s, i) => openObjects(s, doc, `${at}[${i}]`, seen));
  if (!schema || typeof schema !== 'object') return [];
  const s = schema as Record<string, unknown>;
  if (typeof s.$ref === 'string') {
    if (seen.has(s.$ref)) return [];
    seen.add(s.$ref);
    return openObjects(doc.components.schemas[s.$ref.replace('#/components/schemas/', '')], doc, s.$ref, seen);
  }
  const own = s.type === 'object' && s.additionalProperties !== false ? [at] : [];
  const nested = Object.entries(s).flatMap(([key, value]) => {
    if (key === 'example' || key === 'examples' || key === 'default' || key === 'const' || key === 'enum') return [];
    if (key === 'properties') return Object.entries(value as object).flatMap(([name, sub]) => openObjects(sub, doc, `${at}.${name}`, seen));
    return openObjects(value, doc, `${at}/${key}`, seen);
  });
  return [...own, ...nested];
}

describe('strict request bodies and queries', () => {
  let t: TestApp;
  let owner: StockTenant;
  let doc: Document;
  let operations: { method: string; path: string; url: string; op: Operation }[];

  beforeAll(async () => {
    t = await createTestApp('pglite');
    owner = await stockTenant(t, 'strict-owner@example.com');
    doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as Document;
    // Path ids are the owner's own records where the path names one, so that nothing but the extra field is wrong.
    const idFor = (name: string) => (name === 'itemId' ? Object.values(owner.itemIds)[0]! : /garage/i.test(name) ? owner.garageId : owner.unitId);
    operations = Object.entries(doc.paths)
      .filter(([path]) => !foreign(path))
      .flatMap(([path, item]) =>
        Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path, url: path.replace(/\{([^}]+)\}/g, (_, name: string) => idFor(name)), op })),
      );
  });
  afterAll(async () => {
    await t?.close();
  });

  const send = (method: string, url: string, payload?: unknown) =>
    t.app.inject({
      method: method as 'POST',
      url,
      headers: { origin: APP_URL, cookie: owner.cookie, 'idempotency-key': crypto.randomUUID(), ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });

  it('documents every object of every request body as closed', () => {
    const open = Object.entries(doc.paths)
      .filter(([path]) => !foreign(path))
      .flatMap(([path, item]) =>
        Object.entries(item).flatMap(([method, op]) => openObjects(op.requestBody?.content?.['application/json']?.schema, doc, `${method.toUpperCase()} ${path} body`)),
      );
    expect(open).toEqual([]);
  });

  it('answers a body with a field its operation does not take with a 400 naming it, and writes nothing', async () => {
    const withBody = operations.filter(({ op }) => !inbound.has(op.operationId) && requestExamples[op.operationId] !== undefined && op.requestBody?.content?.['application/json']);
    expect(withBody.length).toBeGreaterThan(30);
    const held = async () => [(await send('GET', '/api/units')).body, (await send('GET', '/api/garages')).body, (await send('GET', '/api/items')).body];
    const before = await held();
    const wrong: string[] = [];
    for (const { method, path, url, op } of withBody) {
      const example = requestExamples[op.operationId] as Record<string, unknown>;
      const res = await send(method, url, { ...example, calendar_url: 'https://example.com/old-field.ics' });
      const error = (res.json() as { error?: { code?: string; message?: string; issues?: { path: unknown[] }[] } }).error;
      if (res.statusCode !== 400 || error?.code !== 'VALIDATION' || error.message !== 'Unknown field: calendar_url' || !error.issues?.some((i) => i.path.join('.') === 'calendar_url')) {
        wrong.push(`${method} ${path} → ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await held()).toEqual(before);
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('names a field the operation does not take inside a list of its body', async () => {
    const res = await send('PUT', `/api/garages/${owner.garageId}/inventory`, { inventory: [{ item_id: Object.values(owner.itemIds)[0], quantity: 3, note: 'x' }] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'VALIDATION', message: 'Unknown field: inventory.0.note', issues: [{ path: ['inventory', 0, 'note'] }] } });
  });

  it('names every field the operation does not take', async () => {
    const res = await send('PUT', `/api/units/${owner.unitId}/calendar`, { typical_guests: 4, calendar_url: 'https://example.com/a.ics', notes: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'VALIDATION', message: 'Unknown fields: calendar_url, notes' } });
  });

  it('answers a query parameter its operation does not take with a 400 naming it', async () => {
    const wrong: string[] = [];
    let tried = 0;
    for (const { method, path, url, op } of operations.filter(({ op }) => !inbound.has(op.operationId))) {
      // A query is checked before the body: the operation's example body, if any, keeps that the only fault.
      const example = requestExamples[op.operationId];
      const res = await send(method, `${url}?sort=name`, example);
      tried++;
      const error = (res.json() as { error?: { code?: string; message?: string } }).error;
      if (res.statusCode !== 400 || error?.code !== 'VALIDATION' || error.message !== 'Unknown query parameter: sort') wrong.push(`${method} ${path} → ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    expect(tried).toBeGreaterThan(50);
    expect(wrong).toEqual([]);
  });
});
