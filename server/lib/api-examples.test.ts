/**
 * The API document's examples (server/lib/api-examples.ts, issue 31): every operation with a JSON
 * request body or a 2xx JSON answer has an example, except the answers `withoutExample` lists,
 * and every example, the webhook events' included, validates against its own schema in the
 * served document (Ajv, JSON Schema 2020-12 as in OpenAPI 3.1), so that an example cannot drift
 * from its contract.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { answerExamples, requestExamples, withoutExample } from './api-examples';

interface Media {
  schema: Record<string, unknown>;
  example?: unknown;
}
interface Operation {
  operationId: string;
  requestBody?: { content?: Record<string, Media> };
  responses: Record<string, { description: string; content?: Record<string, Media> }>;
}
interface Document {
  components: Record<string, unknown>;
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, Record<string, Operation>>;
}

/** One JSON body or 2xx JSON answer of an operation. */
interface Example {
  where: string;
  operationId: string;
  media: Media;
}

/**
 * `schema` with every object closed: an answer's zod object is documented open (a client must
 * accept fields it does not know), but an example naming a property its schema does not have is
 * wrong all the same. Request bodies are closed already (docs/api.md "Unknown fields").
 */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (!schema || typeof schema !== 'object') return schema;
  const copy = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => {
      if (key === 'example' || key === 'examples' || key === 'const' || key === 'enum') return [key, value];
      // Maps of names to schemas: each schema is closed, not the map.
      if (key === 'properties' || key === '$defs' || key === 'patternProperties') {
        return [key, Object.fromEntries(Object.entries(value as object).map(([name, sub]) => [name, closed(sub)]))];
      }
      return [key, closed(value)];
    }),
  );
  return 'properties' in copy && !('additionalProperties' in copy) ? { ...copy, additionalProperties: false } : copy;
}

describe('API document examples', () => {
  let t: TestApp;
  let doc: Document;
  let examples: Example[];
  let validator: (schema: Record<string, unknown>) => ValidateFunction;

  beforeAll(async () => {
    t = await createTestApp('pglite');
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    doc = res.json() as Document;
    const operations = [...Object.entries(doc.paths), ...Object.entries(doc.webhooks)].flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, op })),
    );
    examples = operations.flatMap(({ where, op }) => [
      ...(op.requestBody?.content?.['application/json'] ? [{ where: `${where} body`, operationId: op.operationId, media: op.requestBody.content['application/json'] }] : []),
      ...Object.entries(op.responses)
        .filter(([status, response]) => status.startsWith('2') && response.content?.['application/json'])
        .map(([status, response]) => ({ where: `${where} ${status}`, operationId: op.operationId, media: response.content!['application/json']! })),
    ]);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    // The schemas' `$ref`s point into the document's components.
    ajv.addSchema({ $id: 'openapi.json', components: doc.components });
    validator = (schema) => ajv.compile(closed(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/'))) as object);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('gives every JSON body and 2xx JSON answer an example, except the answers listed with a reason', () => {
    expect(examples.length).toBeGreaterThan(100);
    const missing = examples.filter((e) => e.media.example === undefined).map((e) => e.where);
    const excepted = Object.keys(withoutExample);
    expect(missing.sort()).toEqual(['GET /api/auth/{path} 200', 'POST /api/auth/{path} 200']);
    expect(excepted.sort()).toEqual(['authGet', 'authPost']);
    // The reason is the answer's description.
    for (const id of excepted) {
      const op = Object.values(doc.paths).flatMap((item) => Object.values(item)).find((o) => o.operationId === id)!;
      expect(op.responses['200']!.description, id).toBe(withoutExample[id]);
    }
    // No example is kept for an operation that no longer exists or has no such body.
    const used = new Set(examples.filter((e) => e.media.example !== undefined).map((e) => e.operationId));
    for (const id of [...Object.keys(requestExamples), ...Object.keys(answerExamples)]) expect(used, id).toContain(id);
  });

  it('validates every example against its own schema in the document', () => {
    const invalid = examples
      .filter((e) => e.media.example !== undefined)
      .flatMap((e) => {
        const validate = validator(e.media.schema);
        return validate(e.media.example) ? [] : [`${e.where}: ${validate.errors!.map((x) => `${x.instancePath || '/'} ${x.message}`).join('; ')}`];
      });
    expect(invalid).toEqual([]);
  });

  it('refuses an example that differs from its contract', () => {
    const schemaOf = (where: string) => examples.find((e) => e.where === where)!.media.schema;
    const unit = validator(schemaOf('GET /api/units/{id} 200'));
    expect(unit(answerExamples.getUnit)).toBe(true);
    expect(unit({ ...(answerExamples.getUnit as object), inventory: [{ item_id: 'x' }] })).toBe(false);
    // A request body's unknown property is refused too, though the route would drop it.
    const item = validator(schemaOf('POST /api/items body'));
    expect(item(requestExamples.createItem)).toBe(true);
    expect(item({ ...(requestExamples.createItem as object), minimum: 4 })).toBe(false);
  });
});
