/**
 * Set-based generation of benchmark data on PostgreSQL: one large tenant and many small ones,
 * shaped as onboarding and the ledger would leave them (tenants, subscriptions, memberships,
 * garages, items, units, stock rows, inventory_logs), and the large tenant's stays. The ledger is generated first and every
 * stock row is then set to the sum of its ledger rows, so the ledger invariant holds.
 *
 * Needs a connection that bypasses row-level security (a superuser or a BYPASSRLS role): the
 * rows of a thousand tenants are written in a few statements, not one tenant transaction each.
 */
import type pg from 'pg';

export interface BenchShape {
  /** Units (properties) of the large tenant. */
  units: number;
  /** Items of the large tenant; every unit gets a stock row for each. */
  items: number;
  /** Garages of the large tenant; units are spread evenly over them. */
  garages: number;
  /** Small tenants (1–2 garages, 4–8 items, 1–4 units each). */
  smallTenants: number;
}

export const DEFAULT_SHAPE: BenchShape = { units: 1000, items: 100, garages: 10, smallTenants: 1000 };

/** Nights of every generated stay, and the days from 90 back to 60 ahead they fill. */
const STAY_NIGHTS = 2;
const STAY_WINDOW_DAYS = 150;

/**
 * What the large tenant's garages hold at the end of the generated history, in pieces, of each
 * item not at its threshold: the transfers, restocks to minimum and pick-list deliveries of the
 * benchmark take some hundreds of pieces from one garage row (docs/performance-history.md "Stock commands:
 * the requests the web sends"), and must all be answered 200.
 */
export const LARGE_GARAGE_STOCK = { min: 1500, max: 3000 };

/** Ledger rows written per unit stock row: initial, 3 transfers (2 rows each), 3 uses. */
export const LEDGER_ROWS_PER_UNIT_ROW = 10;

export interface GeneratedCounts {
  tenants: number;
  units: number;
  items: number;
  garages: number;
  unitStockRows: number;
  garageStockRows: number;
  ledgerRows: number;
  largeTenant: {
    units: number;
    unitStockRows: number;
    garageStockRows: number;
    ledgerRows: number;
    low: number;
    critical: number;
    /** Unit stock rows below their item's minimum threshold (what "Restock to minimum" fills). */
    belowMinimum: number;
    /** Stays arriving from today to 60 days ahead. */
    upcomingStays: number;
  };
}

/**
 * Writes the data; `owner` (an existing user) becomes the large tenant's owner.
 * @returns the counts actually in the database afterwards.
 * @throws Error when the connection would be filtered by row-level security.
 */
export async function generateBenchData(
  client: pg.Client,
  args: { largeTenantId: string; ownerUserId: string; shape?: BenchShape; log: (line: string) => void },
): Promise<GeneratedCounts> {
  const shape = args.shape ?? DEFAULT_SHAPE;
  const { log } = args;
  const [role] = (await client.query<{ bypass: boolean }>('select rolsuper or rolbypassrls as bypass from pg_roles where rolname = current_user')).rows;
  if (!role?.bypass) throw new Error('The benchmark needs a superuser or BYPASSRLS login in DATABASE_URL to generate data.');

  const step = async (label: string, statement: string, params: unknown[] = []) => {
    const started = Date.now();
    const result = await client.query(statement, params);
    log(`${label}${result.rowCount ? `: ${result.rowCount.toLocaleString('en-US')} rows` : ''} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  };

  // Tenant 0 is the large one; small tenants vary a little in size.
  await client.query(`create temp table bt (n int primary key, tenant_id uuid not null, user_id uuid not null,
                        garages int not null, items int not null, units int not null, large boolean not null)`);
  await client.query(
    'insert into bt values (0, $1, $2, $3, $4, $5, true)',
    [args.largeTenantId, args.ownerUserId, shape.garages, shape.items, shape.units],
  );
  await client.query(
    `insert into bt select n, gen_random_uuid(), gen_random_uuid(), 1 + (n % 3 = 0)::int, 4 + n % 5, 1 + n % 4, false
     from generate_series(1, $1::int) n`,
    [shape.smallTenants],
  );

  await step(
    'Owners of the small tenants',
    `insert into users (id, name, email, email_verified, created_at, updated_at)
     select user_id, 'Owner ' || n, 'owner' || n || '@small.bench.example', true, now() - interval '91 days', now() - interval '91 days'
     from bt where not large`,
  );
  await step(
    'Tenants',
    `insert into tenants (id, name, slug, onboarding_step, onboarding_completed_at, created_at)
     select tenant_id, case when large then 'Large Bench Rentals' else 'Small Rentals ' || n end,
            'bench-' || n || '-' || left(tenant_id::text, 8), 'units', now() - interval '91 days', now() - interval '91 days'
     from bt`,
  );
  await step(
    'Memberships',
    `insert into memberships (tenant_id, id, user_id, role, created_at) select tenant_id, gen_random_uuid(), user_id, 'owner', now() - interval '91 days' from bt`,
  );
  // The large tenant pays for Enterprise (1,000 units exceed every other plan); small ones Starter.
  await step(
    'Subscriptions',
    `insert into subscriptions (tenant_id, trial_ends_at, status, tier_id, billing_interval, current_period_end)
     select b.tenant_id, now() - interval '77 days', 'active', t.id, 'month', now() + interval '20 days'
     from bt b join subscription_tiers t on t.name = case when b.large then 'Enterprise' else 'Starter' end`,
  );

  await client.query(`create temp table bg as
    select b.tenant_id, g.n, gen_random_uuid() as id from bt b cross join lateral generate_series(1, b.garages) g(n)`);
  await step(
    'Garages',
    `insert into garages (tenant_id, id, name, address, created_at)
     select tenant_id, id, 'Storage ' || n, (100 + n * 17) || ' Depot Road', now() - interval '91 days' from bg`,
  );
  await client.query(`create temp table bi as
    select b.tenant_id, i.n, gen_random_uuid() as id, 2 + (i.n * 7) % 9 as threshold,
           round((0.25 + ((i.n * 37) % 400) / 10.0)::numeric, 2) as cost
    from bt b cross join lateral generate_series(1, b.items) i(n)`);
  await step(
    'Items',
    `insert into items (tenant_id, id, name, category, minimum_threshold, count_cost, created_at)
     select tenant_id, id, 'Supply ' || lpad(n::text, 3, '0'),
            (array['Linens', 'Paper Goods', 'Kitchen', 'Toiletries', 'Cleaning', 'Maintenance'])[1 + n % 6],
            threshold, cost, now() - interval '91 days'
     from bi`,
  );
  await client.query(`create temp table bu as
    select b.tenant_id, u.n, gen_random_uuid() as id, g.id as garage_id
    from bt b cross join lateral generate_series(1, b.units) u(n)
    join bg g on g.tenant_id = b.tenant_id and g.n = 1 + (u.n - 1) % b.garages`);
  await step(
    'Units',
    `insert into units (tenant_id, id, name, address, garage_id, created_at)
     select tenant_id, id, 'Property ' || lpad(n::text, 4, '0'), n || ' Shore Lane', garage_id, now() - interval '91 days' from bu`,
  );

  // One plan per unit stock row: three transfers in (12–20 each), two small uses (1–6; the
  // second is a stocktake loss for 15 % of rows) and a last use that lands the row on its final quantity: 4 % at 0 (critical), 12 %
  // at or below the threshold (low), the rest above it. Times are spread over 90 days.
  await client.query(`create temp table bp as
    select tenant_id, unit_id, garage_id, item_id, cost, a1, a2, a3, b1, b2, q, a1 + a2 + a3 - b1 - b2 - q as b3,
           lc < 0.15 as second_use_is_count,
           gen_random_uuid() as tr1, gen_random_uuid() as tr2, gen_random_uuid() as tr3,
           t0, r1, r2, r3,
           r1 + x1 * interval '14 days' as c1, r2 + x2 * interval '14 days' as c2, r3 + x3 * interval '14 days' as c3
    from (
      select u.tenant_id, u.id as unit_id, u.garage_id, i.id as item_id, i.cost, i.threshold,
             12 + floor(random() * 9)::int as a1, 12 + floor(random() * 9)::int as a2, 12 + floor(random() * 9)::int as a3,
             1 + floor(random() * 6)::int as b1, 1 + floor(random() * 6)::int as b2,
             random() as lc, random() as x1, random() as x2, random() as x3,
             now() - interval '90 days' as t0,
             now() - interval '90 days' + (0 + random() * 15) * interval '1 day' as r1,
             now() - interval '90 days' + (30 + random() * 15) * interval '1 day' as r2,
             now() - interval '90 days' + (60 + random() * 15) * interval '1 day' as r3,
             random() as h, random() as hq
      from bu u join bi i on i.tenant_id = u.tenant_id
    ) raw
    cross join lateral (select case when h < 0.04 then 0
                                    when h < 0.16 then 1 + floor(hq * threshold)::int
                                    else threshold + 1 + floor(hq * 8)::int end as q) final`);
  await client.query('create index on bp (garage_id)');
  await client.query('analyze bp');

  const ledger = (where: string) => `
    insert into inventory_logs (tenant_id, item_id, quantity_change, source_type, unit_id, garage_id, type, transfer_id, unit_cost, user_id, note, created_at)
    select p.tenant_id, p.item_id, v.change, v.src,
           case when v.src = 'unit' then p.unit_id end, case when v.src = 'garage' then p.garage_id end,
           v.type, v.transfer, p.cost, b.user_id, v.note, v.at
    from bp p join bt b on b.tenant_id = p.tenant_id
    cross join lateral (values
      (0, 'unit', 'initial', null::uuid, p.t0, 'Created during setup'),
      (p.a1, 'unit', 'restock', p.tr1, p.r1, null), (-p.a1, 'garage', 'restock', p.tr1, p.r1, null), (-p.b1, 'unit', 'consumption', null, p.c1, null),
      (p.a2, 'unit', 'restock', p.tr2, p.r2, null), (-p.a2, 'garage', 'restock', p.tr2, p.r2, null), (-p.b2, 'unit', case when p.second_use_is_count then 'count' else 'consumption' end, null, p.c2,
       case when p.second_use_is_count then 'Inventory count' end),
      (p.a3, 'unit', 'restock', p.tr3, p.r3, null), (-p.a3, 'garage', 'restock', p.tr3, p.r3, null),
      (-p.b3, 'unit', 'consumption', null, p.c3, null)
    ) v(change, src, type, transfer, at, note)
    where ${where}`;
  const largeGarages = (await client.query<{ id: string }>('select id from bg where tenant_id = $1 order by n', [args.largeTenantId])).rows;
  for (const [index, garage] of largeGarages.entries()) {
    await step(`Ledger of the large tenant, garage ${index + 1} of ${largeGarages.length}`, ledger(`p.garage_id = '${garage.id}'`));
  }
  await step('Ledger of the small tenants', ledger(`p.tenant_id <> '${args.largeTenantId}'`));

  // Weekly deliveries bring each garage what it sent out plus what it holds at the end: at or
  // below the threshold for 3 % of its items (garage alerts); of the others 300–1,500 in a small
  // tenant and LARGE_GARAGE_STOCK in the large one, enough for the benchmark's stock loads.
  await step(
    'Garage deliveries',
    `insert into inventory_logs (tenant_id, item_id, quantity_change, source_type, garage_id, type, unit_cost, user_id, note, created_at)
     select d.tenant_id, d.item_id, d.total / 13 + case when w = 0 then d.total % 13 else 0 end, 'garage', d.garage_id,
            'external_addition', d.cost, b.user_id, 'Supplier delivery', now() - interval '90 days' + interval '1 hour' + w * interval '7 days'
     from (
       select g.tenant_id, g.id as garage_id, i.id as item_id, i.cost,
              coalesce(o.sent, 0) + case when random() < 0.03 then floor(random() * (i.threshold + 1))::int
                                         when g.tenant_id = $1 then $2::int + floor(random() * ($3::int - $2::int + 1))::int
                                         else 300 + floor(random() * 1201)::int end as total
       from bg g join bi i on i.tenant_id = g.tenant_id
       left join (select garage_id, item_id, sum(a1 + a2 + a3)::int as sent from bp group by 1, 2) o
         on o.garage_id = g.id and o.item_id = i.id
     ) d
     join bt b on b.tenant_id = d.tenant_id
     cross join generate_series(0, 12) w
     where d.total / 13 + case when w = 0 then d.total % 13 else 0 end > 0`,
    [args.largeTenantId, LARGE_GARAGE_STOCK.min, LARGE_GARAGE_STOCK.max],
  );

  await step(
    'Unit stock rows = sums of their ledger rows',
    `insert into unit_inventory (tenant_id, unit_id, item_id, quantity, updated_at)
     select tenant_id, unit_id, item_id, sum(quantity_change)::int, max(created_at)
     from inventory_logs where source_type = 'unit' group by 1, 2, 3`,
  );
  await step(
    'Garage stock rows = sums of their ledger rows',
    `insert into garage_inventory (tenant_id, garage_id, item_id, quantity, updated_at)
     select tenant_id, garage_id, item_id, sum(quantity_change)::int, max(created_at)
     from inventory_logs where source_type = 'garage' group by 1, 2, 3`,
  );
  // Stays of the large tenant's properties, from 90 days back to 60 ahead: two nights each, back
  // to back (a turnover every other day), 1–6 guests — about 30,000 stays in the next 60 days,
  // what the forecast and the pick lists read (docs/product.md "Forecast").
  await step(
    'Stays of the large tenant',
    `insert into reservations (tenant_id, source, id, unit_id, arrival_date, departure_date, nights, guests, status, channel)
     select u.tenant_id, 'demo', u.n || '-' || k, u.id,
            current_date - 90 + u.n % 2 + 2 * k, current_date - 90 + u.n % 2 + 2 * k + ${STAY_NIGHTS}, ${STAY_NIGHTS},
            1 + (k * 7 + u.n) % 6, 'confirmed', 'Airbnb'
     from bu u cross join generate_series(0, ${STAY_WINDOW_DAYS / STAY_NIGHTS - 1}) k
     where u.tenant_id = $1`,
    [args.largeTenantId],
  );
  for (const table of ['bt', 'bg', 'bi', 'bu', 'bp']) await client.query(`drop table ${table}`);
  // A database that has been running has been vacuumed and analyzed; a fresh bulk load has not.
  await step('Vacuum and analyze', 'vacuum (analyze)');

  const { rows } = await client.query<Record<string, string>>(
    `select (select count(*) from tenants) as tenants, (select count(*) from units) as units, (select count(*) from items) as items,
            (select count(*) from garages) as garages, (select count(*) from unit_inventory) as unit_rows,
            (select count(*) from garage_inventory) as garage_rows, (select count(*) from inventory_logs) as ledger_rows,
            (select count(*) from units where tenant_id = $1) as l_units,
            (select count(*) from unit_inventory where tenant_id = $1) as l_unit_rows,
            (select count(*) from garage_inventory where tenant_id = $1) as l_garage_rows,
            (select count(*) from inventory_logs where tenant_id = $1) as l_ledger_rows,
            (select count(*) from unit_inventory s join items i on i.tenant_id = s.tenant_id and i.id = s.item_id
              where s.tenant_id = $1 and s.quantity > 0 and s.quantity <= i.minimum_threshold) as l_low,
            (select count(*) from unit_inventory where tenant_id = $1 and quantity <= 0) as l_critical,
            (select count(*) from unit_inventory where tenant_id = $1 and quantity < item_threshold) as l_below_minimum,
            (select count(*) from reservations where tenant_id = $1 and arrival_date >= current_date
              and arrival_date < current_date + 60) as l_upcoming_stays`,
    [args.largeTenantId],
  );
  const r = rows[0]!;
  const n = (k: string) => Number(r[k]);
  return {
    tenants: n('tenants'),
    units: n('units'),
    items: n('items'),
    garages: n('garages'),
    unitStockRows: n('unit_rows'),
    garageStockRows: n('garage_rows'),
    ledgerRows: n('ledger_rows'),
    largeTenant: {
      units: n('l_units'),
      unitStockRows: n('l_unit_rows'),
      garageStockRows: n('l_garage_rows'),
      ledgerRows: n('l_ledger_rows'),
      low: n('l_low'),
      critical: n('l_critical'),
      belowMinimum: n('l_below_minimum'),
      upcomingStays: n('l_upcoming_stays'),
    },
  };
}
