/**
 * Answers sent as JSON text the server assembled from parts it serialized earlier (the forecast's
 * stored projections, docs/decisions/037-forecast-read-model.md), instead of objects that Fastify
 * validates and serializes: for a large company's pick list, parsing the stored parts, validating
 * the answer and serializing it again cost 20 ms of the main thread per request. The parts are
 * JSON.stringify's output of typed values; the tests parse these answers with their schemas.
 */
import type { FastifyReply } from 'fastify';

declare const answer: unique symbol;

/** JSON text of a value of type T. */
export type JsonText<T> = string & { readonly [answer]: T };

/**
 * JSON text of the object `value` followed by the fields of `raw`, whose values are JSON text
 * already: `objectWithRaw({ a: 1 }, { items: '[2]' })` is `{"a":1,"items":[2]}`.
 */
export function objectWithRaw(value: Record<string, unknown>, raw: Record<string, string>): string {
  const head = JSON.stringify(value);
  const tail = Object.entries(raw).map(([key, json]) => `${JSON.stringify(key)}:${json}`);
  if (tail.length === 0) return head;
  return `${head.slice(0, -1)}${head.length > 2 ? ',' : ''}${tail.join(',')}}`;
}

/** JSON text of an array of JSON texts. */
export const arrayOfRaw = (parts: readonly string[]): string => `[${parts.join(',')}]`;

/** Marks `text` as the JSON text of a T (the caller assembled it to T's shape). */
export const asJsonText = <T>(text: string): JsonText<T> => text as JsonText<T>;

/** The value of JSON text, for callers in the server (a job, a summary of an answer). */
export const parseJsonText = <T>(text: JsonText<T>): T => JSON.parse(text) as T;

/**
 * Sends `text` as the answer, as it is: Fastify passes a string with a JSON content type to the
 * `onSend` hooks (compression) without serializing or validating it.
 */
export function sendJsonText(reply: FastifyReply, text: JsonText<unknown>): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(text);
}
