/**
 * When the morning email goes out (docs/product.md "Daily email"; docs/decisions/033-job-queue.md):
 * one pg-boss job per company and day, due at DAILY_EMAIL_HOUR o'clock of that day in the
 * company's time zone. The job first queues the company's next day, then sends that day's
 * emails; a company whose members all turned the email off ends its chain, and a member turning
 * it on starts it again. The `stately` policy and the key `{tenant}:{day}` keep one job per
 * company and day, so starting the chain when one already waits changes nothing. A job that runs
 * after its day has ended in the company's time zone (the server was down) sends nothing for it.
 * After a change of time zone the email already queued still goes out at its old instant (on its
 * day in the new zone, or waits for that day to begin there); the following ones at the new
 * zone's hour.
 * The same job records the company's webhook event `forecast.short` of its morning
 * (docs/product.md "Webhooks"), so a company whose endpoints receive it keeps its chain without
 * email recipients.
 * Without a queue (tests of the routes) nothing is scheduled: tests call `sendDailyEmails`.
 */
import { TZDate } from '@date-fns/tz';
import type { JobQueue } from '../../jobs/queue';
import { withTenant } from '../../db/tenant-tx';
import { recordForecastShort } from '../forecast/service';
import { listenedTypes } from '../webhooks/listened';
import { addLocalDays, localDay } from '../stays/local-days';
import { anyRecipient, companyZoneOf, sendDailyEmails, type DailyEmailDeps } from './service';

const SEND = 'daily-email';

export interface DailyEmailJobs {
  /**
   * Makes sure the company's next morning email is scheduled when a member wants it (a member
   * turned it on, or the time zone changed), or an endpoint receives `forecast.short`.
   */
  scheduleNext(tenantId: string): Promise<void>;
}

/** Nothing to schedule without a queue. */
export const inlineDailyEmailJobs: DailyEmailJobs = { scheduleNext: async () => undefined };

/** The instant of `hour` o'clock on the calendar day `day` ('YYYY-MM-DD') in `zone`. */
export function sendInstant(day: string, hour: number, zone: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(new TZDate(y, m - 1, d, hour, 0, 0, zone).getTime());
}

/**
 * The company's next day whose send hour is still ahead of `now`: today before the hour,
 * tomorrow from it on.
 */
export function nextSendDay(now: Date, hour: number, zone: string): string {
  const today = localDay(now, zone);
  return sendInstant(today, hour, zone).getTime() > now.getTime() ? today : addLocalDays(today, 1);
}

/**
 * Registers the worker of the morning email on `queue` and returns how to schedule it; `now` is
 * the clock.
 */
export async function queuedDailyEmailJobs(queue: JobQueue, deps: DailyEmailDeps, now: () => Date): Promise<DailyEmailJobs> {
  const { boss } = queue;
  const zoneOf = (tenantId: string) => companyZoneOf(deps.db, tenantId);
  // Whether the company wants its mornings: an email recipient, or an endpoint receiving forecast.short.
  const wanted = async (tenantId: string) =>
    (await anyRecipient(deps.db, tenantId)) ||
    (await withTenant(deps.db, tenantId, (tx) => listenedTypes(tx, tenantId, ['forecast.short']))).size > 0;
  await queue.createQueue(SEND, { name: SEND, policy: 'stately', retryLimit: 3, retryDelay: 60, retryBackoff: true });

  const schedule = async (tenantId: string, day: string) => {
    const zone = await zoneOf(tenantId);
    await boss.send(SEND, { tenantId, day }, { singletonKey: `${tenantId}:${day}`, startAfter: sendInstant(day, deps.sendHour, zone) });
  };
  const scheduleNext = async (tenantId: string) => {
    if (await wanted(tenantId)) await schedule(tenantId, nextSendDay(now(), deps.sendHour, await zoneOf(tenantId)));
  };

  await queue.work<{ tenantId: string; day: string }>(SEND, { pollingIntervalSeconds: queue.pollingIntervalSeconds }, async ([job]) => {
    const { tenantId, day } = job!.data;
    if (!(await wanted(tenantId))) return { skipped: 'no recipients' };
    const zone = await zoneOf(tenantId);
    const today = localDay(now(), zone);
    // Queued before the company moved to a zone further west: its day has not begun there yet.
    if (today < day) {
      await schedule(tenantId, day);
      return { skipped: 'early' };
    }
    const next = addLocalDays(day, 1);
    const upcoming = nextSendDay(now(), deps.sendHour, zone);
    await schedule(tenantId, next > upcoming ? next : upcoming);
    if (today > day) return { skipped: 'day over' };
    await recordForecastShort(deps.db, tenantId, now());
    return sendDailyEmails(deps, tenantId, now());
  });
  return { scheduleNext };
}
