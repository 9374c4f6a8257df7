/**
 * How the Hostaway work runs (docs/decisions/033-job-queue.md): a company's full reservation sync
 * right after it connects and then every HOSTAWAY_SYNC_MINUTES, and one reservation read again
 * per webhook event. With the job queue, each is a pg-boss job: a sync job first queues the
 * company's next one, so the schedule survives restarts and failures; failed jobs are retried
 * with backoff. The `stately` policy keeps at most one waiting and one running job per key: the
 * scheduled next run (`{tenant}:next`) and a sync asked for now (`{tenant}:now`, after connecting
 * or importing) have their own keys, so one never swallows the other. Without
 * a queue (tests of the routes), the work runs at once in the request.
 */
import type { JobQueue } from '../../jobs/queue';
import { connectedAccount, type HostawayDeps } from './credentials';
import { refreshReservation, syncReservations } from './reservations';

const SYNC = 'hostaway-sync';
const RESERVATION = 'hostaway-reservation';

export interface HostawayJobs {
  /** A full sync of the company soon (after connecting). */
  syncSoon(tenantId: string): Promise<void>;
  /** Reservation `id` read again soon (a webhook event). */
  refreshSoon(tenantId: string, id: number): Promise<void>;
}

/** Runs the work in the caller's request; a failed sync is recorded on the connection, not thrown. */
export function inlineJobs(deps: HostawayDeps): HostawayJobs {
  return {
    syncSoon: async (tenantId) => void (await syncReservations(deps, tenantId).catch(() => undefined)),
    refreshSoon: async (tenantId, id) => void (await refreshReservation(deps, tenantId, id)),
  };
}

/**
 * Registers the workers of the Hostaway jobs on `queue` and returns how to queue them.
 * `syncMinutes` is the pause between two syncs of a company.
 */
export async function queuedJobs(queue: JobQueue, deps: HostawayDeps, syncMinutes: number): Promise<HostawayJobs> {
  const { boss } = queue;
  const retries = { retryLimit: 3, retryDelay: 30, retryBackoff: true };
  await queue.createQueue(SYNC, { name: SYNC, policy: 'stately', ...retries });
  await queue.createQueue(RESERVATION, { name: RESERVATION, policy: 'standard', ...retries });
  const every = { pollingIntervalSeconds: queue.pollingIntervalSeconds };

  await queue.work<{ tenantId: string }>(SYNC, every, async ([job]) => {
    const { tenantId } = job!.data;
    if (!(await connectedAccount(deps, tenantId))) return { skipped: 'not connected' };
    await boss.send(SYNC, { tenantId }, { singletonKey: `${tenantId}:next`, startAfter: syncMinutes * 60 });
    return syncReservations(deps, tenantId);
  });
  await queue.work<{ tenantId: string; id: number }>(RESERVATION, every, async ([job]) => {
    const { tenantId, id } = job!.data;
    if (!(await connectedAccount(deps, tenantId))) return { skipped: 'not connected' };
    return { stored: await refreshReservation(deps, tenantId, id) };
  });

  return {
    syncSoon: async (tenantId) => void (await boss.send(SYNC, { tenantId }, { singletonKey: `${tenantId}:now` })),
    refreshSoon: async (tenantId, id) => void (await boss.send(RESERVATION, { tenantId, id })),
  };
}
