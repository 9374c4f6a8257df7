import { describe, expect, it } from 'vitest';
import { AuthRequestError, runAuthCall } from './auth-request-error';

describe('runAuthCall', () => {
  it('reads the code and message of the standard error body', async () => {
    // What the auth client makes of a 403 answering { error: { code, message } }: the body plus the status.
    const failed = runAuthCall(async () => ({
      error: { error: { code: 'EMAIL_NOT_VERIFIED', message: 'Email not verified' }, status: 403, statusText: 'Forbidden' },
    }));
    await expect(failed).rejects.toEqual(new AuthRequestError('EMAIL_NOT_VERIFIED', 'Email not verified', 403));
    await expect(failed).rejects.toMatchObject({ code: 'EMAIL_NOT_VERIFIED', status: 403 });
  });

  it('falls back to the status text for an answer without the body, and names a network failure', async () => {
    await expect(runAuthCall(async () => ({ error: { status: 502, statusText: 'Bad Gateway' } }))).rejects.toMatchObject({
      code: undefined,
      message: 'Bad Gateway',
      status: 502,
    });
    await expect(
      runAuthCall(async () => {
        throw new TypeError('Failed to fetch');
      }),
    ).rejects.toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
    await expect(runAuthCall(async () => ({ error: null }))).resolves.toBeUndefined();
  });
});
