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
 * dashboard, the reports: docs/performance.md). Plain promise sharing would hand out results of
 * reads that started before the caller's own write, so this is not a memoizer.
 *
 * `keyOf` names the calls that may share a read (default: the argument itself); calls with the
 * same key must ask for the same thing, as a round reads with the argument of its first caller.
 */
export function coalesce<A, V>(read: (arg: A) => Promise<V>, keyOf: (arg: A) => unknown = (arg) => arg): (arg: A) => Promise<V> {
  const rounds = new Map<unknown, { running: Promise<V>; queued?: Promise<V> }>();

  const start = (key: unknown, arg: A): Promise<V> => {
    const running = read(arg).finally(() => {
      const state = rounds.get(key);
      if (state?.running === running && !state.queued) rounds.delete(key);
    });
    return running;
  };

  return (arg: A) => {
    const key = keyOf(arg);
    const state = rounds.get(key);
    if (!state) {
      const running = start(key, arg);
      rounds.set(key, { running });
      return running;
    }
    state.queued ??= state.running.then(
      () => undefined,
      () => undefined,
    ).then(() => {
      const running = start(key, arg);
      rounds.set(key, { running });
      return running;
    });
    return state.queued;
  };
}
