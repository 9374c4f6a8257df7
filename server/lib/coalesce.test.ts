import { describe, expect, it } from 'vitest';
import { coalesce } from './coalesce';

/** A read whose rounds the test settles by hand; each round returns the version it started at. */
function controlledRead() {
  let version = 0;
  const rounds: { key: string; startedAt: number; settle: (fail?: boolean) => void }[] = [];
  const read = (key: string) =>
    new Promise<string>((resolve, reject) => {
      const startedAt = version;
      rounds.push({ key, startedAt, settle: (fail) => (fail ? reject(new Error(`read of ${key} failed`)) : resolve(`${key}@${startedAt}`)) });
    });
  return { read, rounds, write: () => version++ };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('coalesce', () => {
  it('answers callers that arrive during a round from one later round, never from the running one', async () => {
    const c = controlledRead();
    const get = coalesce(c.read);
    const first = get('a');
    c.write(); // a write committed after the first read started…
    const late = [get('a'), get('a'), get('a')]; // …and callers who expect to see it
    await tick();
    expect(c.rounds).toHaveLength(1);
    c.rounds[0]!.settle();
    expect(await first).toBe('a@0');
    await tick();
    expect(c.rounds).toHaveLength(2);
    c.rounds[1]!.settle();
    expect(await Promise.all(late)).toEqual(['a@1', 'a@1', 'a@1']);
    // Idle again: the next call starts its own round at once.
    const again = get('a');
    await tick();
    expect(c.rounds).toHaveLength(3);
    c.rounds[2]!.settle();
    expect(await again).toBe('a@1');
  });

  it('keeps keys apart and lets a failed round fail only its own callers', async () => {
    const c = controlledRead();
    const get = coalesce(c.read);
    const a = get('a');
    const b = get('b');
    const aLate = get('a');
    await tick();
    expect(c.rounds.map((r) => r.key)).toEqual(['a', 'b']);
    c.rounds[0]!.settle(true);
    await expect(a).rejects.toThrow("read of a failed");
    await tick();
    c.rounds[2]!.settle();
    expect(await aLate).toBe('a@0');
    c.rounds[1]!.settle();
    expect(await b).toBe('b@0');
  });

  it('shares a round between calls of the same key only, reading with the argument of the first', async () => {
    const seen: { tenant: string; asked: number }[] = [];
    const releases: (() => void)[] = [];
    const get = coalesce(
      (q: { tenant: string; asked: number }) =>
        new Promise<string>((resolve) => {
          seen.push(q);
          releases.push(() => resolve(`${q.tenant}#${q.asked}`));
        }),
      (q) => q.tenant,
    );
    const first = get({ tenant: 't1', asked: 1 });
    const same = [get({ tenant: 't1', asked: 2 }), get({ tenant: 't1', asked: 3 })];
    const other = get({ tenant: 't2', asked: 4 });
    await tick();
    expect(seen).toEqual([{ tenant: 't1', asked: 1 }, { tenant: 't2', asked: 4 }]);
    releases[0]!();
    expect(await first).toBe('t1#1');
    await tick();
    expect(seen.at(-1)).toEqual({ tenant: 't1', asked: 2 });
    releases[2]!();
    expect(await Promise.all(same)).toEqual(['t1#2', 't1#2']);
    releases[1]!();
    expect(await other).toBe('t2#4');
  });

  it('runs up to `lanes` rounds at once; later callers share the one queued behind them', async () => {
    const c = controlledRead();
    const get = coalesce(c.read, (key) => key, { lanes: 2 });
    const first = get('a');
    c.write();
    const second = get('a'); // a lane is free: its own round, at once
    const late = [get('a'), get('a')];
    await tick();
    expect(c.rounds.map((r) => r.startedAt)).toEqual([0, 1]);
    c.write();
    c.rounds[1]!.settle();
    expect(await second).toBe('a@1');
    await tick();
    expect(c.rounds.map((r) => r.startedAt)).toEqual([0, 1, 2]);
    c.rounds[0]!.settle();
    c.rounds[2]!.settle();
    expect(await first).toBe('a@0');
    expect(await Promise.all(late)).toEqual(['a@2', 'a@2']);
  });
});
