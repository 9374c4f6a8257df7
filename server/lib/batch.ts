/**
 * Batches concurrent calls that share a key, for writes that are much cheaper together than one
 * by one (the plus button: one transaction and one statement for every press waiting).
 *
 * A call while no batch runs for its key starts a batch of its own at once, so a lone call is
 * never delayed. Calls that arrive while a batch runs wait, and all go into the next batch, which
 * starts when the running one settles (at most `maxBatch` inputs a batch; the rest wait for the
 * one after). `run` gets the inputs in arrival order and returns one result per input, in the
 * same order. If it throws, every call of that batch rejects with the error; the next batch
 * starts afresh.
 */
export function batch<I, R>(run: (inputs: I[]) => Promise<R[]>, keyOf: (input: I) => unknown, maxBatch = 100): (input: I) => Promise<R> {
  type Waiting = { input: I; resolve: (result: R) => void; reject: (err: unknown) => void };
  const queues = new Map<unknown, Waiting[]>();

  const drain = (key: unknown, queue: Waiting[]): void => {
    const taken = queue.splice(0, maxBatch);
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
        if (queue.length > 0) drain(key, queue);
        else queues.delete(key);
      });
  };

  return (input: I) =>
    new Promise<R>((resolve, reject) => {
      const key = keyOf(input);
      const queue = queues.get(key);
      if (queue) {
        queue.push({ input, resolve, reject });
        return;
      }
      const fresh: Waiting[] = [{ input, resolve, reject }];
      queues.set(key, fresh);
      drain(key, fresh);
    });
}
