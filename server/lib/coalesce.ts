/**
 * Coalesces concurrent reads of the same key into shared rounds, without ever answering a caller
 * with a result that was started before the caller asked.
 *
 * A call starts a round of its own when fewer than `lanes` rounds run for its key (default 1).
 * Calls that arrive while every lane is busy all join the single round queued behind them, which
 * starts when a lane frees: so every caller gets a read that began after its call (it sees every
 * write committed before it asked), and N concurrent callers cost at most `lanes` + 1 reads
 * instead of N. Errors reach the callers of that round only; later rounds start afresh.
 *
 * Used where one tenant's screen is read by many people at once and the read is expensive (the
 * dashboard, the reports: docs/performance-history.md). Plain promise sharing would hand out
 * results of reads that started before the caller's own write, so this is not a memoizer.
 *
 * `keyOf` names the calls that may share a read (default: the argument itself); calls with the
 * same key must ask for the same thing, as a round reads with the argument of its first caller.
 */
export function coalesce<A, V>(
  read: (arg: A) => Promise<V>,
  keyOf: (arg: A) => unknown = (arg) => arg,
  opts: { lanes?: number } = {},
): (arg: A) => Promise<V> {
  const { lanes = 1 } = opts;
  type Queued = { arg: A; promise: Promise<V>; resolve: (value: V) => void; reject: (err: unknown) => void };
  type State = { running: number; queued?: Queued };
  const rounds = new Map<unknown, State>();

  const start = (key: unknown, state: State, arg: A): Promise<V> => {
    state.running++;
    return read(arg).finally(() => {
      state.running--;
      const next = state.queued;
      if (next) {
        state.queued = undefined;
        start(key, state, next.arg).then(next.resolve, next.reject);
      } else if (state.running === 0) rounds.delete(key);
    });
  };

  return (arg: A) => {
    const key = keyOf(arg);
    let state = rounds.get(key);
    if (!state) rounds.set(key, (state = { running: 0 }));
    if (state.queued) return state.queued.promise;
    if (state.running < lanes) return start(key, state, arg);
    let resolve!: (value: V) => void;
    let reject!: (err: unknown) => void;
    const promise = new Promise<V>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    state.queued = { arg, promise, resolve, reject };
    return promise;
  };
}
