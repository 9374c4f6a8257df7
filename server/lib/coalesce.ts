/**
 * Coalesces concurrent reads of the same key into shared rounds, without ever answering a caller
 * with a result that was started before the caller asked.
 *
 * A call while no round runs for its key starts one. Calls that arrive while a round runs all
 * join the single round queued behind it, which starts when the running one settles: so every
 * caller gets a read that began after its call (it sees every write committed before it asked),
 * and N concurrent callers cost at most two reads instead of N. Errors reach the callers of that
 * round only; the next call starts afresh.
 *
 * Used where one tenant's screen is read by many people at once and the read is expensive (the
 * dashboard: docs/performance.md). Plain promise sharing would hand out results of reads that
 * started before the caller's own write, so this is not a memoizer.
 */
export function coalesce<K, V>(read: (key: K) => Promise<V>): (key: K) => Promise<V> {
  const rounds = new Map<K, { running: Promise<V>; queued?: Promise<V> }>();

  const start = (key: K): Promise<V> => {
    const running = read(key).finally(() => {
      const state = rounds.get(key);
      if (state?.running === running && !state.queued) rounds.delete(key);
    });
    return running;
  };

  return (key: K) => {
    const state = rounds.get(key);
    if (!state) {
      const running = start(key);
      rounds.set(key, { running });
      return running;
    }
    state.queued ??= state.running.then(
      () => undefined,
      () => undefined,
    ).then(() => {
      const running = start(key);
      rounds.set(key, { running });
      return running;
    });
    return state.queued;
  };
}
