/**
 * The `Idempotency-Key` request header of the stock writes (IETF httpapi draft
 * "The Idempotency-Key HTTP Header Field"; docs/decisions/047-idempotency-keys.md): a client that
 * may send a write again — after a timeout, or from the offline queue — sends the same key each
 * time, and the company's stock changes once. Free of zod: the web app's first screen imports it
 * (its request helper), whose bundle keeps to zod/mini (decision 016).
 */

/** The header's name; HTTP header names are case-insensitive, Fastify reads them lower-case. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** Hours a key is kept after its first request; a key sent again later counts as new. */
export const IDEMPOTENCY_KEEP_HOURS = 24;

/** Longest key, in characters. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
