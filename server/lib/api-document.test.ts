/**
 * The served OpenAPI document (decision 015): DELETE operations answer 204 without content, every
 * operation has an operationId, a summary and its error answers with the standard error body, and
 * private operations name the session cookie scheme, and a body is required unless it may be left out. Redocly's rules run in `npm run lint:api`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { SESSION_COOKIE } from './api-document';

interface Operation {
  operationId?: string;
  summary?: string;
  security?: unknown[];
  requestBody?: unknown;
  parameters?: { in: string }[];
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
interface Document {
  security?: unknown[];
  components: { securitySchemes?: Record<string, unknown>; schemas?: Record<string, unknown> };
  paths: Record<string, Record<string, Operation>>;
}

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: Document;
  let operations: { method: string; path: string; op: Operation }[];

  beforeAll(async () => {
    t = await createTestApp('pglite');
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    doc = res.json() as Document;
    operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ method, path, op })));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('documents every DELETE as 204 without content, except the removal of a stock row, which answers how to undo it', () => {
    const deletes = operations.filter((o) => o.method === 'delete');
    expect(deletes.length).toBeGreaterThanOrEqual(4);
    for (const { path, op } of deletes) {
      if (path === '/api/units/{id}/inventory/{itemId}') {
        expect(op.responses['204'], path).toBeUndefined();
        expect(op.responses['200']!.content, path).toBeDefined();
        continue;
      }
      expect(op.responses['200'], path).toBeUndefined();
      expect(op.responses['204'], path).toBeDefined();
      expect(op.responses['204']!.content, path).toBeUndefined();
    }
  });

  it('documents a body as required unless it may be left out', () => {
    const required = (path: string, method: string) => (doc.paths[path]![method]!.requestBody as { required?: boolean }).required;
    expect(required('/api/units/{id}/restock-to-minimum', 'post')).toBe(false);
    expect(required('/api/units/{id}/inventory/{itemId}/transfer', 'post')).toBe(true);
    expect(required('/api/items', 'post')).toBe(true);
  });

  it('gives every operation a unique operationId and a summary', () => {
    const ids = operations.map((o) => o.op.operationId);
    for (const { method, path, op } of operations) {
      expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z]+$/);
      expect(op.summary, `${method} ${path}`).toBeTruthy();
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('lists every operation’s error answers, each with the standard error body', () => {
    const errorRef = { $ref: '#/components/schemas/ErrorBody' };
    expect(doc.components.schemas?.ErrorBody).toMatchObject({ required: ['error'] });
    for (const { method, path, op } of operations) {
      const where = `${method} ${path}`;
      const statuses = Object.keys(op.responses);
      expect(statuses, where).toEqual(expect.arrayContaining(['500', '503']));
      if (op.security?.length !== 0) expect(statuses, where).toContain('401');
      // Any POST, PUT or PATCH can be sent a malformed or oversized body.
      if (['post', 'put', 'patch'].includes(method)) expect(statuses, where).toEqual(expect.arrayContaining(['400', '413']));
      if (op.parameters?.some((p) => p.in === 'path')) expect(statuses, where).toEqual(expect.arrayContaining(['404', '414']));
      for (const status of statuses.filter((s) => Number(s) >= 400)) {
        expect(op.responses[status]!.content?.['application/json']?.schema, `${where} ${status}`).toEqual(errorRef);
      }
    }
    const byId = Object.fromEntries(operations.map((o) => [o.op.operationId, Object.keys(o.op.responses)]));
    // Statuses a route names through its error codes, beyond those its shape implies.
    expect(byId.createItem).toEqual(expect.arrayContaining(['402', '403', '409']));
    expect(byId.deleteGarage).toEqual(expect.arrayContaining(['402', '403', '409']));
    expect(byId.startCheckout).toEqual(expect.arrayContaining(['403', '502']));
    expect(byId.authPost).toContain('429');
  });

  it('names the session cookie, or an API key where a key may call it, as the security scheme of every private operation', () => {
    expect(doc.components.securitySchemes).toEqual({
      sessionCookie: expect.objectContaining({ type: 'apiKey', in: 'cookie', name: SESSION_COOKIE }),
      apiKey: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    });
    expect(doc.security).toEqual([{ sessionCookie: [] }, { apiKey: [] }]);
    const publicOps = operations.filter((o) => o.op.security?.length === 0).map((o) => o.op.operationId);
    expect(publicOps.sort()).toEqual(expect.arrayContaining(['authGet', 'authPost', 'health', 'receiveBillingEvent']));
    expect(operations.find((o) => o.op.operationId === 'listUnits')!.op.security).toBeUndefined();
    // A browser session only (docs/decisions/049-api-keys.md): the keys themselves, billing, a person's own routes.
    for (const id of ['createApiKey', 'listApiKeys', 'revokeApiKey', 'getMe']) {
      expect(operations.find((o) => o.op.operationId === id)!.op.security, id).toEqual([{ sessionCookie: [] }]);
    }
  });
});
