/**
 * A stock write the network fails to send when it cannot be kept (stock-write.ts: nobody signed
 * in, so no outbox): it says the network is at fault and is sent again with the same
 * Idempotency-Key; a refusal by the server stays the server's.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { IDEMPOTENCY_KEY_HEADER } from '../../common/idempotency';
import { ApiError } from './api-error';
import { ChangeNotSent, sendStockWrite } from './stock-write';

const description = { kind: 'taps' as const, label: '1 Bath Towel used at Beach House', href: '/unit/u1' };

/** Sends a write; what it answered or threw. */
function send(idempotencyKey?: string): Promise<unknown> {
  return sendStockWrite('/api/units/u1/inventory/i1/consume', { body: { quantity: 1 }, schema: z.object({ ok: z.boolean() }), idempotencyKey }, description).then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

/** The Idempotency-Key of the fetch call `n`. */
function keyOf(fetch: ReturnType<typeof vi.fn>, n: number): string {
  const init = fetch.mock.calls[n]![1] as RequestInit;
  return (init.headers as Record<string, string>)[IDEMPOTENCY_KEY_HEADER]!;
}

describe('sendStockWrite without the outbox', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says the network failed, and a retry with its key sends the same key', async () => {
    const fetch = vi.fn().mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValueOnce(new Response(JSON.stringify({ ok: true }), { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    const failed = (await send()) as { error: unknown };
    expect(failed.error).toBeInstanceOf(ChangeNotSent);
    const notSent = failed.error as ChangeNotSent;
    expect(notSent.message).toBe('The network failed: the change was not saved. Tap Retry to send it again.');
    expect(notSent.status).toBe(0);
    expect(notSent.key).toBe(keyOf(fetch, 0));
    expect(await send(notSent.key)).toEqual({ value: { ok: true } });
    expect(keyOf(fetch, 1)).toBe(notSent.key);
  });

  it('treats a gateway timeout as the network, and a refusal as the server’s', async () => {
    const refusal = { error: { code: 'CONFLICT', message: 'Not enough stock available in garage' } };
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(new Response('', { status: 504 }))
      .mockResolvedValueOnce(new Response(JSON.stringify(refusal), { status: 409 }));
    vi.stubGlobal('fetch', fetch);
    expect(((await send()) as { error: unknown }).error).toBeInstanceOf(ChangeNotSent);
    const refused = ((await send()) as { error: unknown }).error;
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).not.toBeInstanceOf(ChangeNotSent);
    expect((refused as ApiError).message).toBe('Not enough stock available in garage');
  });
});
