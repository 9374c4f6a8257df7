import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { api, backends, createTestApp, type TestApp } from '../../test/harness';
import { stockTenant, type StockTenant } from '../../test/stock-fixtures';

interface Alert {
  item_name: string;
  alert_type: 'low' | 'critical';
  location_name: string;
  location_type: 'unit' | 'garage';
}

describe.each(backends)('dashboard on %s', (backend) => {
  let t: TestApp;
  let s: StockTenant;
  let towel: string;
  let coffee: string;
  beforeAll(async () => {
    t = await createTestApp(backend);
    // Bath Towel: threshold 3; Coffee Pods: threshold 10. Beach House starts with both at 0.
    s = await stockTenant(t, 'dashboard@example.com');
    towel = s.itemIds['Bath Towel']!;
    coffee = s.itemIds['Coffee Pods']!;
  });
  afterAll(() => t.close());

  const dashboard = async () => (await api(t, s.cookie, 'GET', '/api/dashboard')).json();
  const brief = (alerts: Alert[]) => alerts.map((a) => `${a.alert_type} ${a.item_name} @ ${a.location_name}`);
  const setThreshold = async (itemId: string, name: string, minimum_threshold: number) => {
    const res = await api(t, s.cookie, 'PATCH', `/api/items/${itemId}`, { name, category: 'Linen', minimum_threshold, count_cost: 6.5 });
    expect(res.statusCode).toBe(200);
  };

  it('counts and lists the rows in alert, critical first, then the newest', async () => {
    let d = await dashboard();
    expect(d.stats).toEqual({ total_units: 1, total_items: 2, low_stock_items: 0, critical_items: 2 });

    expect((await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory`, { item_id: towel, quantity: 2 })).statusCode).toBe(200);
    const second = await api(t, s.cookie, 'POST', '/api/units', {
      name: 'Dune Cottage',
      address: '4 Shore Lane',
      garage_id: s.garageId,
      inventory: [{ item_id: towel, quantity: 1 }, { item_id: coffee, quantity: 40 }],
    });
    expect(second.statusCode).toBe(201);
    d = await dashboard();
    expect(d.stats).toEqual({ total_units: 2, total_items: 2, low_stock_items: 2, critical_items: 1 });
    expect(brief(d.unit_alerts)).toEqual([
      'critical Coffee Pods @ Beach House',
      'low Bath Towel @ Dune Cottage',
      'low Bath Towel @ Beach House',
    ]);
    expect(d.unit_alerts.every((a: Alert) => a.location_type === 'unit')).toBe(true);
    // Times in the contract's format: ISO 8601 UTC with milliseconds.
    for (const a of d.unit_alerts as { created_at: string }[]) expect(new Date(a.created_at).toISOString()).toBe(a.created_at);
  });

  it('follows a change of the item threshold at once', async () => {
    await setThreshold(towel, 'Bath Towel', 1);
    let d = await dashboard();
    expect(d.stats).toMatchObject({ low_stock_items: 1, critical_items: 1 });
    expect(brief(d.unit_alerts)).toEqual(['critical Coffee Pods @ Beach House', 'low Bath Towel @ Dune Cottage']);

    await setThreshold(towel, 'Bath Towel', 0);
    d = await dashboard();
    expect(d.stats).toMatchObject({ low_stock_items: 0, critical_items: 1 });

    await setThreshold(towel, 'Bath Towel', 3);
    d = await dashboard();
    expect(d.stats).toMatchObject({ low_stock_items: 2, critical_items: 1 });
    // The copy on every stock row follows the item (the items_threshold_carry trigger, migration 0031).
    const copies = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from unit_inventory s join items i on i.tenant_id = s.tenant_id and i.id = s.item_id
          where s.item_threshold <> i.minimum_threshold`,
    );
    expect(copies[0]!.n).toBe(0);
  });

  it('lists garage rows in alert and the recent activity, newest first', async () => {
    const saved = await api(t, s.cookie, 'PUT', `/api/garages/${s.garageId}/inventory`, {
      inventory: [{ item_id: towel, quantity: 20 }, { item_id: coffee, quantity: 5 }],
    });
    expect(saved.statusCode).toBe(200);
    let d = await dashboard();
    expect(brief(d.garage_alerts)).toEqual(['low Coffee Pods @ Main Storage']);
    expect(d.garage_alerts[0].location_type).toBe('garage');

    expect((await api(t, s.cookie, 'POST', `/api/units/${s.unitId}/inventory/${coffee}/transfer`, { quantity: 1 })).statusCode).toBe(200);
    d = await dashboard();
    const newest = await queryRows<{ at: Date }>(t.database.db, sql`select max(created_at) as at from inventory_logs where tenant_id = ${s.tenantId}`);
    expect(d.recent_activity[0].created_at).toBe(new Date(newest[0]!.at).toISOString());
    expect(d.recent_activity.slice(0, 2).map((l: { item_name: string; quantity_change: number; source_name: string }) => [l.item_name, l.quantity_change, l.source_name]).sort()).toEqual([
      ['Coffee Pods', -1, 'Main Storage'],
      ['Coffee Pods', 1, 'Beach House'],
    ]);
    // Beach House coffee went from 0 to 1: low now, no longer critical.
    expect(d.stats).toMatchObject({ low_stock_items: 3, critical_items: 0 });
    expect(brief(d.unit_alerts)[0]).toBe('low Coffee Pods @ Beach House');
  });
});
