/**
 * When webhook deliveries are sent (docs/decisions/050-webhooks.md, decision 033): one chain of
 * pg-boss jobs, shared by every server on the database. A run sends every due delivery
 * (delivery.ts `sendDueDeliveries`), deletes the events past their retention, then queues the next
 * run `pollSeconds` later (singleton key 'sweep' under the `stately` policy: one run waits and one
 * runs at a time, so servers starting together never double the chain). A run that fails (the
 * database unreachable) queues the next run too; should that fail as well, the run itself is
 * retried every RETRY_SECONDS for as long as it takes, so an outage never ends the chain. Without
 * a queue (tests of the routes) nothing runs by itself: tests call `sendDueDeliveries`; Resend and
 * the test event are attempted in their request.
 */
import type { JobQueue } from '../../jobs/queue';
import { pruneOldEvents, sendDueDeliveries, type WebhookDeps } from './delivery';

/** Pause before a failed run is tried again, in seconds. */
const RETRY_SECONDS = 30;

/** pg-boss's name of the sending job. */
export const WEBHOOK_SEND_JOB = 'webhook-deliveries';

/** Registers the sending worker on `queue` and starts the chain (or keeps the one already queued). */
export async function startWebhookDeliveries(queue: JobQueue, deps: WebhookDeps, pollSeconds: number): Promise<void> {
  const { boss } = queue;
  await queue.createQueue(WEBHOOK_SEND_JOB, { name: WEBHOOK_SEND_JOB, policy: 'stately', retryLimit: 1_000_000, retryDelay: RETRY_SECONDS });
  const next = () => boss.send(WEBHOOK_SEND_JOB, {}, { singletonKey: 'sweep', startAfter: pollSeconds });
  await queue.work(WEBHOOK_SEND_JOB, { pollingIntervalSeconds: queue.pollingIntervalSeconds }, async () => {
    try {
      const sent = await sendDueDeliveries(deps);
      return { ...sent, pruned: await pruneOldEvents(deps.db, deps.now()) };
    } finally {
      await next();
    }
  });
  await next();
}
