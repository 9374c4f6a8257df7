/**
 * The OpenAPI document served at /api/docs/json (and its reference page at /api/docs), built by
 * @fastify/swagger from the routes' zod schemas (decision 015):
 * - every operation has a summary and an operationId (written on the route), a tag, and the
 *   session cookie as its security requirement unless the route's declared access is 'public'
 *   (server/access.ts), which documents it with `security: []`;
 * - every operation lists its error answers, all with the `ErrorBody` schema: the statuses its
 *   shape implies are added here (400 and 413 with a body or query, 401 unless public, 404 and
 *   414 with path ids, 429 when rate limited, 500 and 503 always), the others come from the
 *   codes the route names in `x-errors` (e.g. `['NO_TENANT', 'SUBSCRIPTION_REQUIRED']`);
 * - a nullable request body is documented as optional (a request may leave it out);
 * - better-auth's catch-all routes are documented as `/api/auth/{path}`;
 * - the events a company's webhook endpoints receive are its `webhooks` (server/lib/api-webhooks.ts),
 *   which is why the document is OpenAPI 3.1 and its schemas JSON Schema 2020-12;
 * - every JSON request body and 2xx JSON answer has an `example` (server/lib/api-examples.ts, by
 *   operationId), except the answers that module lists as without one, whose description says why.
 * `npm run lint:api` lints the result with Redocly's recommended rules.
 */
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorStatus, type ErrorCode } from '../../common/errors';
import { keysAllowed } from '../access';
import { answerExamples, requestExamples, withoutExample } from './api-examples';
import { webhookDocuments } from './api-webhooks';

declare module 'fastify' {
  interface FastifySchema {
    /** Error codes the operation answers beyond those its shape implies (see the module docstring). */
    'x-errors'?: readonly ErrorCode[];
  }
}

/** Name of the session cookie better-auth sets at sign-in; it authenticates every private operation. */
export const SESSION_COOKIE = 'better-auth.session_token';

const SECURITY_SCHEME = 'sessionCookie';

/** A company's API key in `Authorization: Bearer <key>` (docs/decisions/049-api-keys.md). */
const KEY_SCHEME = 'apiKey';

/** Response schema of a 204 answer (deletions): documented without content. */
export const noContent = z.void();

/** `{ error: { code, message, issues? } }` (common/errors.ts), as a JSON schema. */
const errorBodySchema = {
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      additionalProperties: false,
      properties: {
        code: { type: 'string', enum: Object.keys(errorStatus), description: 'Stable code; the HTTP status follows from it.' },
        message: { type: 'string', description: 'A sentence for people, safe to show as is.' },
        issues: {
          type: 'array',
          description: 'Field problems of a 400 answer.',
          items: {
            type: 'object',
            required: ['path', 'message'],
            additionalProperties: false,
            properties: {
              path: { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'integer' }] } },
              message: { type: 'string' },
            },
          },
        },
      },
    },
  },
} as const;

/** What each error status means, whatever the operation. */
const statusMeaning: Record<number, string> = {
  400: 'The request is malformed or a field is invalid (`issues` names the fields)',
  401: 'Not signed in, or the session has ended',
  402: 'The trial has expired without a subscription, or the plan limit is reached',
  403: 'The role or the plan does not allow this',
  404: 'No such record in the caller’s company (another company’s id answers the same)',
  409: 'The request conflicts with the current state',
  413: 'The body is over 1 MiB, or a photo over the scanner’s limit (SCAN_PHOTO_MAX_BYTES)',
  414: 'A path id is over 100 characters',
  422: 'The request was understood but gives nothing to work with (an existing account, a photo without the company’s items)',
  429: 'Too many requests; wait a minute',
  500: 'Unexpected failure; nothing is leaked',
  502: 'The payment provider or the AI model failed',
  503: 'The database is unreachable, the server is restarting, or billing or the photo scanner is not configured; retry later',
};

type Operation = {
  operationId?: string;
  requestBody?: unknown;
  parameters?: { in: string }[];
  security?: unknown[];
  responses: Record<string, unknown>;
  'x-errors'?: readonly ErrorCode[];
  'x-rate-limited'?: boolean;
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

/**
 * The error codes an operation can answer: those its shape implies, then the ones it names. A
 * POST, PUT or PATCH may be sent a body even when it documents none, so it can always answer 400
 * (malformed JSON, wrong content type) and 413.
 */
export function operationErrorCodes(method: string, op: Operation): ErrorCode[] {
  const codes = new Set<ErrorCode>(['INTERNAL', 'UNAVAILABLE']);
  const query = op.parameters?.some((p) => p.in === 'query') ?? false;
  const path = op.parameters?.some((p) => p.in === 'path') ?? false;
  const takesBody = Boolean(op.requestBody) || ['post', 'put', 'patch'].includes(method);
  if (takesBody || query) codes.add('VALIDATION');
  if (takesBody) codes.add('PAYLOAD_TOO_LARGE');
  if (!(op.security && op.security.length === 0)) codes.add('UNAUTHENTICATED');
  if (path) codes.add('NOT_FOUND').add('URI_TOO_LONG');
  if (op['x-rate-limited']) codes.add('RATE_LIMITED');
  for (const code of op['x-errors'] ?? []) codes.add(code);
  return [...codes];
}

/** Response objects for `codes`, one per status, each naming the codes it carries. */
function errorResponses(codes: ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(errorStatus[code], [...(byStatus.get(errorStatus[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, list]) => [
        String(status),
        {
          description: `${statusMeaning[status] ?? 'Error'} (${list.sort().join(', ')}).`,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
        },
      ]),
  );
}

const authPathDescription =
  'better-auth endpoint, e.g. `sign-up/email`, `sign-in/email`, `sign-out`, `get-session`, `verify-email` (may contain `/`).';

/**
 * Per route: zod schemas become JSON schemas (fastify-type-provider-zod), a 204 is documented
 * without content, better-auth's wildcard becomes a named path parameter with its own summary,
 * and a rate limit is noted for the error list.
 */
const transform: FastifyDynamicSwaggerOptions['transform'] = (input) => {
  const zodResponse = input.schema?.response as Record<string, unknown> | undefined;
  // A 204 has no body (and z.void() no JSON schema): `type: 'null'` documents it without content.
  const { 204: noBodySchema, ...bodyResponses } = zodResponse ?? {};
  const noBody = noBodySchema !== undefined;
  const zodSchema = noBody ? { ...input.schema, response: bodyResponses } : input.schema;
  const { schema, url } = jsonSchemaTransform({ ...input, schema: zodSchema } as Parameters<typeof jsonSchemaTransform>[0]);
  const rateLimited = Boolean((input.route.config as { rateLimit?: unknown } | undefined)?.rateLimit);
  if (url.startsWith('/api/auth/')) {
    const method = String(input.route.method).toLowerCase();
    return {
      url: '/api/auth/{path}',
      schema: {
        ...schema,
        tags: ['auth'],
        operationId: `auth${method[0]!.toUpperCase()}${method.slice(1)}`,
        summary: method === 'get' ? 'Read a session or follow an emailed link (better-auth)' : 'Sign up, sign in, sign out (better-auth)',
        description: 'Handled by better-auth; sign-in sets the session cookie the other operations need.',
        // better-auth answers JSON, and its error page (`error`) as HTML.
        produces: ['application/json', 'text/html'],
        security: [],
        params: { type: 'object', required: ['path'], properties: { path: { type: 'string', description: authPathDescription } } },
        response: {
          // Any JSON: an object, or null from get-session without a session.
          200: { description: 'better-auth’s answer' },
          ...(method === 'get' ? { 302: { description: 'Redirect after an emailed link', type: 'null' } } : {}),
        },
        // better-auth's own refusals: invalid fields, wrong password, unconfirmed email.
        'x-errors': ['VALIDATION', 'UNAUTHENTICATED', 'EMAIL_NOT_VERIFIED'],
        ...(rateLimited ? { 'x-rate-limited': true } : {}),
      },
    };
  }
  const documented = noBody
    ? { ...schema, response: { ...(schema?.response as object), 204: { type: 'null', description: 'Done; no body' } } }
    : schema;
  const access = input.route.config?.access;
  // A request made with an API key may also be counted out (429) or refused as a read-only key (403).
  const byKey = keysAllowed(access);
  const errors = (documented as { 'x-errors'?: readonly ErrorCode[] } | undefined)?.['x-errors'] ?? [];
  return {
    url,
    schema: {
      ...documented,
      ...(byKey ? { 'x-errors': [...errors, 'FORBIDDEN' as const] } : {}),
      // Public: nothing; routes a key may call: either scheme (the document's default); the
      // others: the session cookie only.
      ...(access === 'public' ? { security: [] } : keysAllowed(access) ? {} : { security: [{ [SECURITY_SCHEME]: [] }] }),
      ...(rateLimited || byKey ? { 'x-rate-limited': true } : {}),
    },
  };
};

/** What {@link acceptsNull} reads of a JSON schema. */
interface JsonSchema {
  type?: string | string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

/** Whether a JSON Schema (2020-12, as OpenAPI 3.1 has them) accepts null: `type` null, or a branch that does. */
function acceptsNull(schema: JsonSchema): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes('null') || [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].some(acceptsNull);
}

/** What {@link addExamples} reads and writes of a request body or a response. */
interface WithContent {
  description?: string;
  content?: Record<string, { example?: unknown }>;
}

/**
 * Sets the operation's examples (server/lib/api-examples.ts) on its JSON request body and its 2xx
 * JSON answers; an answer without one gets the reason as its description.
 */
function addExamples(op: Operation): void {
  const id = op.operationId ?? '';
  const body = (op.requestBody as WithContent | undefined)?.content?.['application/json'];
  if (body && requestExamples[id] !== undefined) body.example = requestExamples[id];
  for (const [status, response] of Object.entries(op.responses as Record<string, WithContent>)) {
    const media = response.content?.['application/json'];
    if (!status.startsWith('2') || !media) continue;
    if (answerExamples[id] !== undefined) media.example = answerExamples[id];
    else if (withoutExample[id]) response.description = withoutExample[id];
  }
}

/** Adds every operation's error responses and examples, and drops the bookkeeping extensions. */
const transformObject: FastifyDynamicSwaggerOptions['transformObject'] = (document) => {
  if (!('openapiObject' in document)) return document.swaggerObject;
  const { openapiObject } = document;
  for (const item of Object.values(openapiObject.paths ?? {})) {
    for (const method of METHODS) {
      const op = (item as Partial<Record<(typeof METHODS)[number], Operation>>)[method];
      if (!op) continue;
      // @fastify/swagger marks every body required; a nullable one may be left out (Fastify
      // validates a request without a body as null).
      const body = op.requestBody as { required?: boolean; content?: Record<string, { schema?: JsonSchema }> } | undefined;
      const media = Object.values(body?.content ?? {});
      if (body && media.length > 0 && media.every((m) => m.schema !== undefined && acceptsNull(m.schema))) body.required = false;
      addExamples(op);
      Object.assign(op.responses, errorResponses(operationErrorCodes(method, op)));
      delete op['x-errors'];
      delete op['x-rate-limited'];
    }
  }
  return openapiObject;
};

/** @fastify/swagger's options for this API; `appUrl` is the server the document names. */
export function apiDocumentOptions(appUrl: string): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Inventory Manager API',
        version: '1.0.0',
        description:
          'Supply inventory for short-term-rental operators. Sign in through `/api/auth/sign-in/email`; the session cookie it sets ' +
          'authenticates every other operation. A company\'s API key, sent as `Authorization: Bearer <key>`, authenticates the operations ' +
          'that list it, within the key\'s role. Every error answers `{ error: { code, message, issues? } }` with the status of its code.',
      },
      servers: [{ url: appUrl }],
      components: {
        securitySchemes: {
          [SECURITY_SCHEME]: {
            type: 'apiKey',
            in: 'cookie',
            name: SESSION_COOKIE,
            description: 'Set by better-auth at sign-in (HttpOnly); send every cookie it set.',
          },
          [KEY_SCHEME]: {
            type: 'http',
            scheme: 'bearer',
            description:
              "A company's API key (`imk_…`), created on the API keys screen by an admin or owner. The company and the role come from the key; " +
              'a read-only key may call GET operations open to members. Requests per key are limited per minute (429).',
          },
        },
        schemas: { ErrorBody: errorBodySchema as never },
      },
      security: [{ [SECURITY_SCHEME]: [] }, { [KEY_SCHEME]: [] }],
      tags: [
        { name: 'auth', description: 'Sign-up, sign-in and sessions (better-auth)' },
        { name: 'health', description: 'Liveness' },
        { name: 'session', description: 'The signed-in user' },
        { name: 'onboarding', description: 'First-run setup: company, items, storage, properties' },
        { name: 'billing', description: 'Plans, usage and subscriptions' },
        { name: 'dashboard', description: 'Counts, alerts and recent activity' },
        { name: 'items', description: 'The supply catalogue' },
        { name: 'garages', description: 'Storage locations and their stock' },
        { name: 'units', description: 'Properties and their stock' },
        { name: 'reports', description: 'Cost, status and assistant reports' },
        { name: 'hostaway', description: 'Import of listings and reservations from Hostaway' },
        { name: 'api-keys', description: "The company's API keys (a browser session of an admin or owner)" },
        { name: 'webhooks', description: "The company's webhook endpoints and their deliveries (a browser session of an admin or owner)" },
        { name: 'webhook-events', description: 'The events POSTed to those endpoints, signed the Standard Webhooks way' },
      ],
      webhooks: webhookDocuments() as never,
    },
    transform,
    transformObject,
  };
}
