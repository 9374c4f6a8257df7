/**
 * The periodic refresh of calendar links (docs/product.md "Stays", decision 033): every property
 * with calendar links has them read again every CALENDAR_REFRESH_MINUTES. Each property has its own chain of
 * pg-boss jobs: a run reads the links, then queues the property's next run (singleton key
 * `{tenant}:{unit}:next` under the `stately` policy, so a chain never doubles), also when the read
 * failed, which is then retried with backoff while the next run waits. A property whose last link was removed,
 * or that was deleted, queues nothing: its chain ends. Without a job queue (tests of the routes) an
 * added link is read in the request only.
 */
import type { JobQueue } from '../../jobs/queue';
import { refreshCalendars, type CalendarDeps } from './service';

/** pg-boss's name of the refresh job; its data is `{ tenantId, unitId }`. */
export const CALENDAR_REFRESH_JOB = 'calendar-refresh';

export interface CalendarJobs {
  /** Makes sure the property's links are read again in CALENDAR_REFRESH_MINUTES (after a link is added). */
  follow(tenantId: string, unitId: string): Promise<void>;
}

/** Without a queue: nothing is scheduled. */
export const inlineCalendarJobs: CalendarJobs = { follow: async () => undefined };

/**
 * Registers the refresh worker on `queue` and returns how to start a property's chain.
 * `refreshMinutes` is the pause between two reads of one property's link.
 */
export async function queuedCalendarJobs(queue: JobQueue, deps: CalendarDeps, refreshMinutes: number): Promise<CalendarJobs> {
  const { boss } = queue;
  await queue.createQueue(CALENDAR_REFRESH_JOB, { name: CALENDAR_REFRESH_JOB, policy: 'stately', retryLimit: 3, retryDelay: 60, retryBackoff: true });
  const next = (tenantId: string, unitId: string) =>
    boss.send(CALENDAR_REFRESH_JOB, { tenantId, unitId }, { singletonKey: `${tenantId}:${unitId}:next`, startAfter: refreshMinutes * 60 });

  await queue.work<{ tenantId: string; unitId: string }>(CALENDAR_REFRESH_JOB, { pollingIntervalSeconds: queue.pollingIntervalSeconds }, async ([job]) => {
    const { tenantId, unitId } = job!.data;
    // A failing link keeps its schedule; only the last link removed or a deleted property
    // (nothing to read) ends the chain.
    const stays = await refreshCalendars(deps, tenantId, unitId).catch(async (err: unknown) => {
      await next(tenantId, unitId);
      throw err;
    });
    if (stays === null) return { skipped: 'no calendar links' };
    await next(tenantId, unitId);
    return stays;
  });

  return { follow: async (tenantId, unitId) => void (await next(tenantId, unitId)) };
}
