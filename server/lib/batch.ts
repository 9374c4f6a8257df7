/**
 * Batches concurrent calls that share a key, for writes that are much cheaper together than one
 * by one (the plus button: one transaction and one statement for every press waiting).
 *
 * Up to `lanes` batches of a key run at once. A call that finds a lane free starts a batch at
 * once (with whatever else is waiting), so a lone call is never delayed. Calls that arrive while
 * every lane is busy wait, and all go into the next batch, which starts when a lane frees (at
 * most `maxBatch` inputs a batch; the rest wait for the one after). `run` gets the inputs in
 * arrival order and returns one result per input, in the same order. If it throws, every call of
 * that batch rejects with the error; later batches start afresh.
 */
export function batch<I, R>(
  run: (inputs: I[]) => Promise<R[]>,
  keyOf: (input: I) => unknown,
  opts: { lanes?: number; maxBatch?: number } = {},
): (input: I) => Promise<R> {
  type Waiting = { input: I; resolve: (result: R) => void; reject: (err: unknown) => void };
  type Queue = { waiting: Waiting[]; running: number };
  const { lanes = 1, maxBatch = 100 } = opts;
  const queues = new Map<unknown, Queue>();

  const drain = (key: unknown, queue: Queue): void => {
    const taken = queue.waiting.splice(0, maxBatch);
    queue.running++;
    run(taken.map((w) => w.input))
      .then(
        (results) => {
          if (results.length !== taken.length) throw new Error(`batch: ${results.length} results for ${taken.length} inputs`);
          taken.forEach((w, i) => w.resolve(results[i]!));
        },
        (err: unknown) => taken.forEach((w) => w.reject(err)),
      )
      .catch((err: unknown) => taken.forEach((w) => w.reject(err)))
      .finally(() => {
        queue.running--;
        if (queue.waiting.length > 0) drain(key, queue);
        else if (queue.running === 0) queues.delete(key);
      });
  };

  return (input: I) =>
    new Promise<R>((resolve, reject) => {
      const key = keyOf(input);
      let queue = queues.get(key);
      if (!queue) queues.set(key, (queue = { waiting: [], running: 0 }));
      queue.waiting.push({ input, resolve, reject });
      if (queue.running < lanes) drain(key, queue);
    });
}
