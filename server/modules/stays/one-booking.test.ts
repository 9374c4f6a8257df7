/**
 * One booking, one stay (stays/one-booking.ts) on the database: which row of a booking listed by
 * Hostaway and by calendar links counts, by dates or by the guest's name over overlapping nights,
 * that a removed source's duplicate counts again, and that the forecast learns from each booking once.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { withTenant } from '../../db/tenant-tx';
import { backends, createTestApp, type TestApp } from '../../test/harness';
import { stockTenant, type StockTenant } from '../../test/stock-fixtures';
import { refreshUsageRates } from '../forecast/rates';
import { matchCalendarStays } from './one-booking';

describe.each(backends)('one booking, one stay on %s', (backend) => {
  let t: TestApp;
  let s: StockTenant;
  beforeAll(async () => {
    t = await createTestApp(backend);
    s = await stockTenant(t, 'one-booking@example.com');
  });
  afterAll(() => t.close());

  /** Inserts a reservation of the company's unit: [source, id, arrival, departure, guest key, guests, link]. */
  const add = (rows: [string, string, string, string, string | null, number | null, string | null][]) =>
    withTenant(t.database.db, s.tenantId, async (tx) => {
      for (const [source, id, arrival, departure, guestKey, guests, link] of rows) {
        await tx.execute(sql`insert into reservations (tenant_id, source, id, unit_id, calendar_link_id, arrival_date, departure_date, guests, guest_key, status)
          values (${s.tenantId}, ${source}, ${id}, ${s.unitId}, ${link}, ${arrival}, ${departure}, ${guests}, ${guestKey}, ${source === 'hostaway' ? 'new' : 'confirmed'})`);
      }
    });
  const match = () => withTenant(t.database.db, s.tenantId, (tx) => matchCalendarStays(tx, s.tenantId, [s.unitId]));
  const statuses = async () =>
    Object.fromEntries(
      (await queryRows<{ id: string; status: string }>(t.database.db, sql`select id, status from reservations where unit_id = ${s.unitId} order by id`)).map((r) => [r.id, r.status]),
    );

  it('keeps the Hostaway row, else the link row with guests, else the oldest link’s; joins changed dates by the guest’s name only', async () => {
    const links = await withTenant(t.database.db, s.tenantId, (tx) =>
      queryRows<{ id: string }>(
        tx,
        sql`insert into calendar_links (tenant_id, unit_id, url, created_at) values
              (${s.tenantId}, ${s.unitId}, 'https://a.example/old.ics', '2026-01-01'),
              (${s.tenantId}, ${s.unitId}, 'https://a.example/new.ics', '2026-06-01')
            returning id`,
      ),
    );
    const [old, recent] = [links[0]!.id, links[1]!.id];
    await add([
      // Hostaway has Maria's booking moved by a night; the old link still lists the old dates.
      ['hostaway', 'h1', '2026-12-03', '2026-12-07', 'maria', 4, null],
      ['calendar', 'c-old-1', '2026-12-03', '2026-12-06', 'maria', null, old],
      // Only the links list this one: the new link gives its guests.
      ['calendar', 'c-old-2', '2026-12-10', '2026-12-12', null, null, old],
      ['calendar', 'c-new-2', '2026-12-10', '2026-12-12', 'kim', 3, recent],
      // Neither gives guests: the old link's counts.
      ['calendar', 'z-old-3', '2026-12-15', '2026-12-18', null, null, old],
      ['calendar', 'a-new-3', '2026-12-15', '2026-12-18', null, null, recent],
      // Overlapping nights with other names are two bookings as far as the product can tell.
      ['calendar', 'c-new-4', '2026-12-06', '2026-12-08', 'lee', null, recent],
    ]);
    await match();
    expect(await statuses()).toEqual({
      h1: 'new',
      'c-old-1': 'duplicate',
      'c-old-2': 'duplicate',
      'c-new-2': 'confirmed',
      'z-old-3': 'confirmed',
      'a-new-3': 'duplicate',
      'c-new-4': 'confirmed',
    });
    // Hostaway's booking cancelled: the link's row counts again.
    await withTenant(t.database.db, s.tenantId, (tx) => tx.execute(sql`update reservations set status = 'cancelled' where id = 'h1'`));
    await match();
    expect((await statuses())['c-old-1']).toBe('confirmed');
    // The forecast learns from 4 bookings, not the 7 rows listing them.
    await refreshUsageRates(t.database.db, s.tenantId, new Date('2026-12-20T12:00:00Z'));
    const learned = await queryRows<{ stays: number }>(t.database.db, sql`select distinct stays from usage_rates where unit_id = ${s.unitId}`);
    expect(learned.map((r) => Number(r.stays))).toEqual([4]);
  });
});
