/** When an open delivery log is read again. */
import { describe, expect, it } from 'vitest';
import { LOG_REFRESH_MAX_MS, LOG_REFRESH_MIN_MS, logRefreshDelay } from './log-refresh';

const now = new Date('2026-11-28T13:00:00.000Z');
const pending = (next_attempt_at: string | null) => ({ status: 'pending' as const, next_attempt_at });

describe('logRefreshDelay', () => {
  it('does not read the log again while nothing is pending', () => {
    expect(logRefreshDelay([], now)).toBe(false);
    expect(logRefreshDelay([{ status: 'succeeded', next_attempt_at: null }, { status: 'failed', next_attempt_at: null }], now)).toBe(false);
  });

  it('reads it shortly after the soonest attempt is due', () => {
    expect(logRefreshDelay([pending('2026-11-28T13:00:00.000Z')], now)).toBe(LOG_REFRESH_MIN_MS);
    expect(logRefreshDelay([pending(null)], now)).toBe(LOG_REFRESH_MIN_MS);
    expect(logRefreshDelay([pending('2026-11-28T12:59:00.000Z')], now)).toBe(LOG_REFRESH_MIN_MS);
    expect(logRefreshDelay([pending('2026-11-28T13:00:20.000Z'), pending('2026-11-28T13:00:10.000Z')], now)).toBe(15_000);
  });

  it('reads it at least once a minute while a retry is hours away', () => {
    expect(logRefreshDelay([pending('2026-11-28T18:00:00.000Z')], now)).toBe(LOG_REFRESH_MAX_MS);
  });
});
