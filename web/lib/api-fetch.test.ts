import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, isNetworkError, saveErrorMessage } from './api-error';
import { apiFetch } from './api-fetch';

function answer(status: number, body: unknown) {
  return vi.fn(async () => new Response(body === undefined ? null : JSON.stringify(body), { status }));
}

describe('apiFetch', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends JSON with the session cookie and validates the answer', async () => {
    const fetchMock = answer(200, { count: 2 });
    vi.stubGlobal('fetch', fetchMock);
    await expect(apiFetch('/api/x', { method: 'POST', body: { a: 1 }, schema: z.object({ count: z.number() }) })).resolves.toEqual({
      count: 2,
    });
    const [path, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe('/api/x');
    expect(init.credentials).toBe('include');
    expect(init.body).toBe('{"a":1}');
  });

  it('sends a stock write with an Idempotency-Key: a new UUID per call, or the one given', async () => {
    const fetchMock = answer(200, {});
    vi.stubGlobal('fetch', fetchMock);
    await apiFetch('/api/x', { method: 'POST', body: {}, idempotencyKey: true });
    await apiFetch('/api/x', { method: 'POST', body: {}, idempotencyKey: true });
    await apiFetch('/api/x', { method: 'POST', body: {}, idempotencyKey: 'kept-key' });
    await apiFetch('/api/x', { method: 'POST', body: {} });
    const keys = fetchMock.mock.calls.map((call) => ((call as unknown as [string, RequestInit])[1].headers as Record<string, string>)['Idempotency-Key']);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).not.toBe(keys[0]);
    expect(keys.slice(2)).toEqual(['kept-key', undefined]);
  });

  it("throws the server's error body as an ApiError", async () => {
    const issues = [{ path: ['company_name'], message: 'Please enter a company name' }];
    vi.stubGlobal('fetch', answer(400, { error: { code: 'VALIDATION', message: 'Please enter a company name', issues } }));
    const error = await apiFetch('/api/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'VALIDATION', status: 400, message: 'Please enter a company name', issues });
    expect(saveErrorMessage(error, 'Failed to save company')).toBe('Please enter a company name');
  });

  it('reports a missing answer as a network error, worth retrying', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    const error = await apiFetch('/api/x').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
    expect(isNetworkError(error)).toBe(true);
    expect(saveErrorMessage(error, 'Failed to save company')).toBe('Failed to save company');
  });

  it('treats an answer of the wrong shape as unexpected, not as data', async () => {
    vi.stubGlobal('fetch', answer(200, { count: 'two' }));
    await expect(apiFetch('/api/x', { schema: z.object({ count: z.number() }) })).rejects.toMatchObject({
      code: 'UNEXPECTED_RESPONSE',
    });
    vi.stubGlobal('fetch', answer(502, undefined));
    const error = await apiFetch('/api/x').catch((e: unknown) => e);
    expect(isNetworkError(error)).toBe(true);
  });

  it('takes a GET that index.html already sent, once, and checks its answer the same way', async () => {
    vi.resetModules();
    vi.stubGlobal('window', {
      firstScreenRequests: {
        '/api/x': Promise.resolve(new Response(JSON.stringify({ count: 2 }))),
        '/api/y': Promise.resolve(new Response(JSON.stringify({ error: { code: 'NO_TENANT', message: 'No company yet' } }), { status: 409 })),
      },
    });
    const { apiFetch: startedApiFetch } = await import('./api-fetch');
    const fetchMock = answer(200, { count: 3 });
    vi.stubGlobal('fetch', fetchMock);
    const schema = z.object({ count: z.number() });
    await expect(startedApiFetch('/api/x', { schema })).resolves.toEqual({ count: 2 });
    await expect(startedApiFetch('/api/y')).rejects.toMatchObject({ code: 'NO_TENANT', status: 409 });
    expect(fetchMock).not.toHaveBeenCalled();
    await expect(startedApiFetch('/api/x', { schema })).resolves.toEqual({ count: 3 });
    await expect(startedApiFetch('/api/y', { method: 'POST', body: {} })).resolves.toEqual({ count: 3 });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
