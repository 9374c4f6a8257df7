/**
 * Health of the server: GET /api/health (the process answers; the database is not asked) and
 * GET /api/ready (the database answers and holds the latest migration). Not ready is a 503
 * UNAVAILABLE error body (decision 010).
 */
import { z } from 'zod';

export const healthResponse = z.object({ ok: z.literal(true) });
export type HealthResponse = z.infer<typeof healthResponse>;

export const readyResponse = z.object({
  ok: z.literal(true),
  /** Tag of the latest migration, applied on the database, e.g. "0010_rls_everywhere". */
  migration: z.string(),
});
export type ReadyResponse = z.infer<typeof readyResponse>;
