/**
 * Bounded fuzz test over every operation of the served OpenAPI document (decision 015), signed in
 * as a real tenant owner: hostile path ids (NUL and control characters, over-long ids, other
 * tenants' ids), query values and bodies (huge strings, huge, negative and fractional numbers,
 * NaN-ish strings, impossible dates, wrong types, arrays for objects, malformed JSON). Each
 * answer must be documented for its operation, never a 5xx (but a documented 503
 * BILLING_NOT_CONFIGURED and SCANNER_NOT_CONFIGURED: this app has no payment provider and no AI key), every error must have the standard
 * body, and every 2xx must match its documented schema. Afterwards the server still answers
 * /api/health and every stock quantity still equals its ledger.
 *
 * Bounded: `ROUNDS` requests per operation, stopped early after `TIME_BUDGET_MS`; the seed is
 * fixed so a failure replays (FUZZ_SEED overrides it).
 */
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorStatus, type ErrorCode } from '../common/errors';
import { APP_URL, backends, createTestApp, type TestApp } from './test/harness';
import { ledgerMismatches, stockTenant, type StockTenant } from './test/stock-fixtures';

const ROUNDS = 60;
const TIME_BUDGET_MS = 50_000;
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_523);

interface Schema {
  /** One type, or several (OpenAPI 3.1: `['string', 'null']` for a nullable string). */
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  $ref?: string;
}
interface Operation {
  operationId: string;
  parameters?: { in: 'path' | 'query' | 'header' | 'cookie'; name: string; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
  security?: unknown[];
}
interface Document {
  components: { schemas: Record<string, Schema> };
  paths: Record<string, Record<string, Operation>>;
}

interface FuzzRequest {
  method: string;
  url: string;
  payload?: string;
  contentType?: string;
}

// ---- hostile values ------------------------------------------------------------------------

const hostileString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\u0001\u0002\u001b[31m\u001f\u007f',
    '\r\n\t',
    '\u202e\ufeff\u200b',
    '💥'.repeat(60),
    "'; drop table items; --",
    '%00',
    '../../etc/passwd',
    '<script>alert(1)</script>',
    'NaN',
    'Infinity',
    '-0',
    '1e309',
    'null',
    'undefined',
    '__proto__',
  ),
  fc.constantFrom('2024-02-30', '2023-13-01', '0000-00-00', '9999-99-99', '+275760-09-13', '2024-1-1', '1970-01-01T00:00:00Z', '-001-01-01'),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer({ min: 201, max: 120_000 }).map((n) => 'x'.repeat(n)),
);
const hostileNumber = fc.oneof(
  fc.constantFrom(-1, -0, 0.5, 0.001, 12.345, 1e308, -1e308, 2 ** 53 + 1, 1e21, Number.MAX_SAFE_INTEGER, 1_000_000_001, -2_147_483_649),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  hostileNumber,
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
);

/** Hostile path segments; each is sent percent-encoded unless it is in `rawSegments`. */
const hostileSegment = fc.oneof(
  hostileString.filter((s) => s.length > 0 && s.length < 6000),
  fc.constantFrom('a'.repeat(101), 'a'.repeat(5000), '1', '-1', '0', 'NaN', '..', '00000000-0000-0000-0000-000000000000'),
);
const rawSegments = fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', '%2e%2e');

// ---- values shaped by the document's schemas ------------------------------------------------

/** Ids a request may name: the owner's own records, another tenant's, and unknown ones. */
interface IdPool {
  own: string[];
  foreign: string[];
}

function validValue(schema: Schema, ids: IdPool, depth = 0): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.type)) {
    return fc.oneof(...schema.type.map((type) => (type === 'null' ? fc.constant(null) : validValue({ ...schema, type }, ids, depth))));
  }
  const base = ((): fc.Arbitrary<unknown> => {
    if (schema.enum) return fc.constantFrom(...schema.enum);
    if (schema.oneOf ?? schema.anyOf) return fc.oneof(...(schema.oneOf ?? schema.anyOf)!.map((s) => validValue(s, ids, depth)));
    switch (schema.type) {
      case 'string':
        if (schema.format === 'uuid') return fc.oneof(fc.constantFrom(...ids.own), fc.constantFrom(...ids.foreign), fc.uuid());
        if (schema.pattern?.includes('\\d{4}-\\d{2}-\\d{2}')) return fc.constantFrom('2026-01-01', '2026-11-20', '2020-02-29', '2100-12-31');
        return fc.constantFrom('Fuzz', 'Linen', 'Shelf 1', 'A'.repeat(200));
      case 'integer':
        return fc.integer({ min: 0, max: 20 });
      case 'number':
        return fc.constantFrom(0, 1.5, 6.25, 99.99);
      case 'boolean':
        return fc.boolean();
      case 'array':
        return depth > 3 ? fc.constant([]) : fc.array(fuzzValue(schema.items ?? {}, ids, depth + 1), { maxLength: 3 });
      case 'object':
        if (!schema.properties || depth > 3) return fc.constant({});
        return fc.record(Object.fromEntries(Object.entries(schema.properties).map(([k, s]) => [k, fuzzValue(s, ids, depth + 1)])), {
          requiredKeys: [],
        });
      default:
        return hostileValue;
    }
  })();
  return base;
}

/** Mostly schema-shaped (to reach the services), sometimes hostile, sometimes an array for an object. */
function fuzzValue(schema: Schema, ids: IdPool, depth = 0): fc.Arbitrary<unknown> {
  const valid = validValue(schema, ids, depth);
  return fc.oneof(
    { weight: 6, arbitrary: valid },
    { weight: 2, arbitrary: hostileValue },
    { weight: 1, arbitrary: schema.type === 'object' ? fc.array(valid, { maxLength: 2 }) : hostileValue },
  );
}

function bodyFor(op: Operation, ids: IdPool): fc.Arbitrary<Pick<FuzzRequest, 'payload' | 'contentType'>> {
  const schema = op.requestBody?.content['application/json']?.schema;
  const json = (schema ? fuzzValue(schema, ids) : hostileValue).map((v) => ({ payload: JSON.stringify(v), contentType: 'application/json' }));
  const withExtraKeys = (schema ? validValue(schema, ids) : fc.constant({})).map((v) => ({
    payload: JSON.stringify(v).replace(/^\{/, '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}},"tenant_id":"x",'),
    contentType: 'application/json',
  }));
  const malformed = fc.record({
    payload: fc.constantFrom('{"name": ', 'not json', '[1,2', '\u0000', '{"a":1}{"b":2}', '"' + 'x'.repeat(2_000_000) + '"'),
    contentType: fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1'),
  });
  if (!schema) return fc.oneof({ weight: 3, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: json }, { weight: 1, arbitrary: malformed });
  return fc.oneof({ weight: 6, arbitrary: json }, { weight: 1, arbitrary: withExtraKeys }, { weight: 1, arbitrary: malformed });
}

const authEndpoints = [
  'sign-in/email',
  'sign-up/email',
  'get-session',
  'verify-email',
  'send-verification-email',
  'request-password-reset',
  'reset-password',
  'list-sessions',
  'update-user',
  'ok',
  'error',
  'organization/list',
];

function segmentFor(path: string, name: string, ids: IdPool): fc.Arbitrary<string> {
  if (path.startsWith('/api/auth/')) {
    return fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...authEndpoints) },
      { weight: 1, arbitrary: hostileSegment.map((s) => s.split('/').map(encodeURIComponent).join('/')) },
    );
  }
  const valid = name ? fc.oneof(fc.constantFrom(...ids.own), fc.constantFrom(...ids.foreign), fc.uuid()) : fc.uuid();
  return fc.oneof({ weight: 4, arbitrary: valid }, { weight: 2, arbitrary: hostileSegment.map(encodeURIComponent) }, { weight: 1, arbitrary: rawSegments });
}

function queryFor(op: Operation, ids: IdPool): fc.Arbitrary<string> {
  const params = (op.parameters ?? []).filter((p) => p.in === 'query');
  if (params.length === 0) return fc.constant('');
  const one = (p: (typeof params)[number]) =>
    fc.option(
      fc.oneof(
        fuzzValue(p.schema, ids).map((v) => [`${p.name}=${encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))}`]),
        fc.array(hostileString.filter((s) => s.length < 200), { minLength: 2, maxLength: 3 }).map((vs) => vs.map((v) => `${p.name}=${encodeURIComponent(v)}`)),
      ),
      { nil: [] as string[] },
    );
  return fc.tuple(...params.map(one)).map((parts) => {
    const query = parts.flat().join('&');
    return query ? `?${query}` : '';
  });
}

function requestFor(method: string, path: string, op: Operation, ids: IdPool): fc.Arbitrary<FuzzRequest> {
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const segments = fc.tuple(...names.map((n) => segmentFor(path, n, ids)));
  const hasBody = method !== 'get' && method !== 'delete';
  return fc.tuple(segments, queryFor(op, ids), hasBody ? bodyFor(op, ids) : fc.constant({})).map(([values, query, body]) => {
    let url = path;
    names.forEach((n, i) => (url = url.replace(`{${n}}`, values[i]!)));
    return { method: method.toUpperCase(), url: url + query, ...body };
  });
}

// ---- checking answers -----------------------------------------------------------------------

/** Replaces `$ref`s to the document's components by the schemas they name. */
function deref(schema: unknown, doc: Document): unknown {
  if (Array.isArray(schema)) return schema.map((s) => deref(s, doc));
  if (!schema || typeof schema !== 'object') return schema;
  const ref = (schema as Schema).$ref;
  if (ref) return deref(doc.components.schemas[ref.replace('#/components/schemas/', '')], doc);
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, deref(v, doc)]));
}

function validators(doc: Document): (op: Operation, status: string) => ValidateFunction | null {
  // The document's schemas are JSON Schema (OpenAPI 3.1); its annotations are not checks.
  const ajv = new Ajv({ strict: false, allErrors: true });
  // ajv-formats is CommonJS: its function is the default export or the module itself.
  const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
  addFormats(ajv);
  const cache = new Map<string, ValidateFunction | null>();
  return (op, status) => {
    const key = `${op.operationId} ${status}`;
    if (!cache.has(key)) {
      const schema = op.responses[status]?.content?.['application/json']?.schema;
      cache.set(key, schema ? ajv.compile(deref(schema, doc) as object) : null);
    }
    return cache.get(key)!;
  };
}

function describeRequest(r: FuzzRequest): string {
  const url = r.url.length > 160 ? `${r.url.slice(0, 160)}…(${r.url.length} chars)` : r.url;
  const body = r.payload === undefined ? '' : ` ${r.contentType} ${r.payload.length > 160 ? `${r.payload.slice(0, 160)}…(${r.payload.length} chars)` : r.payload}`;
  return `${r.method} ${url}${body}`;
}

describe.each(backends)('API fuzz (%s)', (backend) => {
  let t: TestApp;
  let owner: StockTenant;
  let other: StockTenant;

  beforeAll(async () => {
    t = await createTestApp(backend);
    owner = await stockTenant(t, 'fuzz-owner@example.com');
    other = await stockTenant(t, 'fuzz-other@example.com');
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The 503s of a part this app runs without (no payment provider, no AI key): documented, not failures. */
  const notConfigured = new Set(['BILLING_NOT_CONFIGURED', 'SCANNER_NOT_CONFIGURED']);
  it('answers hostile requests to every operation as documented, never with a 5xx', { timeout: 120_000 }, async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as Document;
    const validate = validators(doc);
    const ids: IdPool = {
      own: [...Object.values(owner.itemIds), owner.garageId, owner.unitId],
      foreign: [...Object.values(other.itemIds), other.garageId, other.unitId, other.tenantId],
    };
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({
        op,
        // Auth operations go without the cookie: a fuzzed sign-out or password change must not end the owner's session.
        cookie: path.startsWith('/api/auth/') ? undefined : owner.cookie,
        requests: fc.sample(requestFor(method, path, op, ids), { numRuns: ROUNDS, seed: SEED }),
      })),
    );

    const failures: string[] = [];
    const started = Date.now();
    let sent = 0;
    for (let round = 0; round < ROUNDS && Date.now() - started < TIME_BUDGET_MS; round++) {
      for (const { op, cookie, requests } of operations) {
        const r = requests[round]!;
        const res = await t.app.inject({
          method: r.method as 'GET',
          url: r.url,
          headers: { origin: APP_URL, ...(cookie ? { cookie } : {}), ...(r.contentType ? { 'content-type': r.contentType } : {}) },
          ...(r.payload === undefined ? {} : { payload: r.payload }),
        });
        sent++;
        const fail = (why: string) => failures.push(`${describeRequest(r)} → ${res.statusCode} ${res.body.slice(0, 300)}: ${why}`);
        const status = String(res.statusCode);
        if (!op.responses[status]) fail(`status not documented for ${op.operationId}`);
        const type = String(res.headers['content-type'] ?? '').split(';')[0]!;
        if (res.body !== '' && type !== 'application/json') {
          if (!op.responses[status]?.content?.[type]) fail(`${type} answer not documented`);
          continue;
        }
        let body: unknown;
        try {
          body = res.body === '' ? undefined : JSON.parse(res.body);
        } catch {
          fail('answer is not JSON');
          continue;
        }
        if (res.statusCode >= 400) {
          const error = (body as { error?: { code?: ErrorCode } } | undefined)?.error;
          if (!validate(op, status)?.(body) && op.responses[status]) fail('error body is not the standard shape');
          else if (!error?.code || errorStatus[error.code] !== res.statusCode) fail('error code does not carry this status');
          if (res.statusCode >= 500 && !notConfigured.has(error?.code ?? '')) fail('server error');
        } else if (res.statusCode === 204) {
          if (res.body !== '') fail('204 with a body');
        } else if (res.statusCode >= 200 && res.statusCode < 300) {
          const check = validate(op, status);
          if (check && !check(body)) fail(`answer does not match its schema: ${JSON.stringify(check.errors?.slice(0, 3))}`);
        }
      }
    }
    const seconds = (Date.now() - started) / 1000;
    console.log(`API fuzz (${backend}): ${operations.length} operations, ${sent} requests in ${seconds.toFixed(1)} s, ${failures.length} failures`);

    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(await ledgerMismatches(t)).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(operations.length * 20);
    expect(failures).toEqual([]);
  });
});
