import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionMemo } from './session-memo';

const TOKEN = 'better-auth.session_token';
const COPY = 'better-auth.session_data';
/** A signed session copy cookie value expiring at `expiresAt` (ms); its signature is not checked here. */
const copy = (expiresAt: number) => Buffer.from(JSON.stringify({ session: {}, expiresAt, signature: 'sig' })).toString('base64url');

describe('session memo', () => {
  afterEach(() => vi.useRealTimers());

  it('finds a verified token by its signed cookie, whatever the order of the cookies or the others beside them', () => {
    const memo = new SessionMemo(TOKEN, COPY);
    const until = Date.now() + 60_000;
    memo.remember(`${TOKEN}=tok1.sig1; ${COPY}=${copy(until)}`, 'tok1');
    expect(memo.lookup(`${TOKEN}=tok1.sig1; ${COPY}=${copy(until)}`)).toBe('tok1');
    expect(memo.lookup(`theme=dark; ${COPY}=${copy(until)}; ${TOKEN}=tok1.sig1`)).toBe('tok1');
    expect(memo.lookup(`${TOKEN}=tok1.sig1`)).toBe('tok1');
    // Another signature of the same token was never verified.
    expect(memo.lookup(`${TOKEN}=tok1.forged`)).toBeUndefined();
    expect(memo.lookup(`${TOKEN}=tok2.sig2`)).toBeUndefined();
    expect(memo.lookup('theme=dark')).toBeUndefined();
  });

  it('forgets a token when the signed copy it was verified with expires, and remembers nothing without a readable copy', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const memo = new SessionMemo(TOKEN, COPY);
    memo.remember(`${TOKEN}=tok1.sig1; ${COPY}=${copy(Date.now() + 60_000)}`, 'tok1');
    vi.setSystemTime(Date.now() + 60_001);
    expect(memo.lookup(`${TOKEN}=tok1.sig1`)).toBeUndefined();
    memo.remember(`${TOKEN}=tok2.sig2`, 'tok2');
    memo.remember(`${TOKEN}=tok3.sig3; ${COPY}=not-json`, 'tok3');
    memo.remember(`${TOKEN}=tok4.sig4; ${COPY}=${copy(Date.now() - 1)}`, 'tok4');
    for (const signed of ['tok2.sig2', 'tok3.sig3', 'tok4.sig4']) expect(memo.lookup(`${TOKEN}=${signed}`)).toBeUndefined();
  });
});
