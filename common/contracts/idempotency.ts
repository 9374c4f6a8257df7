/**
 * The validation of the `Idempotency-Key` header (common/idempotency.ts holds its name and limits).
 */
import { z } from 'zod';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../idempotency';

/**
 * A key: 1 to 255 printable ASCII characters (a UUID is what the web app sends). The draft writes
 * it as a Structured Field string, in double quotes; a bare key is taken as well, as most APIs do.
 */
export const idempotencyKey = z
  .string()
  .transform((raw) => (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw))
  .pipe(
    z
      .string()
      .min(1, 'Idempotency-Key must not be empty')
      .max(MAX_IDEMPOTENCY_KEY_LENGTH, `Idempotency-Key must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`)
      .regex(/^[\x20-\x7e]+$/, 'Idempotency-Key must be printable ASCII characters'),
  );

/**
 * The request headers of an idempotent route: the key is optional (without it, no replay). Loose:
 * the validated object replaces the request's headers, which must keep the others (the cookie).
 */
export const idempotencyHeaders = z.looseObject({ 'idempotency-key': idempotencyKey.optional() });
