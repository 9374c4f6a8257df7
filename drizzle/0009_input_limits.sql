-- Input limits (docs/decisions/011-input-limits.md). The API refuses quantities over 1,000,000 per
-- request and unit costs over $1,000,000; the database keeps what the API cannot see alone:
--
-- 1. A stock row holds at most 10,000,000 (MAX_STOCK_QUANTITY in common/contracts/fields.ts).
--    Repeated additions could otherwise pass the 32-bit column ("integer out of range", after
--    which the row's writes and the reports summing it failed). A write that would pass the
--    maximum fails on the constraint, its transaction changes nothing, and the server answers it
--    409 naming the limit (server/lib/constraint-errors.ts). Added NOT VALID: rows written before
--    are not checked until they change, and a stocktake or deletion can still bring them down.
ALTER TABLE "garage_inventory" ADD CONSTRAINT "garage_inventory_quantity_max" CHECK ("quantity" <= 10000000) NOT VALID;
--> statement-breakpoint
ALTER TABLE "unit_inventory" ADD CONSTRAINT "unit_inventory_quantity_max" CHECK ("quantity" <= 10000000) NOT VALID;
--> statement-breakpoint
-- 2. An item costs at most $1,000,000 (MAX_UNIT_COST), so a ledger row's worth is at most
--    10^15 cents. Items priced higher before this migration keep their price until edited.
ALTER TABLE "items" ADD CONSTRAINT "items_count_cost_max" CHECK ("count_cost" <= 1000000) NOT VALID;
--> statement-breakpoint
-- 3. The usage totals (migration 0006) grow with every request, whatever the limits per row:
--    migration 0011 widens `used` to bigint and `cost_cents` to numeric, and the functions that
--    keep them sum in those types instead of casting to int and bigint (a unit deleted with
--    10,000,000 of an item at $1,000,000 is 10^15 cents in one row; the first cast that failed,
--    "bigint out of range", left such a row impossible to empty or delete). Same bodies as
--    migrations 0006 and 0007 otherwise.
DROP FUNCTION "garage_usage_change"(int, uuid[], date[], uuid[], uuid[], int[]);
--> statement-breakpoint
CREATE FUNCTION "garage_usage_change"(sign int, tenants uuid[], days date[], garages uuid[], items uuid[], amounts bigint[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(days) IS NULL OR cardinality(days) = 0 THEN
    RETURN;
  END IF;
  IF sign > 0 THEN
    WITH d AS (SELECT * FROM unnest(tenants, days, garages, items, amounts) AS x(tenant_id, day, garage_id, item_id, used)),
    daily AS (
      INSERT INTO garage_usage_daily AS t (tenant_id, day, garage_id, item_id, used)
      SELECT tenant_id, day, garage_id, item_id, used FROM d ORDER BY 1, 2, 3, 4
      ON CONFLICT (tenant_id, day, garage_id, item_id) DO UPDATE SET used = t.used + excluded.used
    )
    INSERT INTO garage_usage_weekly AS t (tenant_id, week, garage_id, item_id, used)
    SELECT tenant_id, date_trunc('week', day::timestamp)::date, garage_id, item_id, sum(used) FROM d GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (tenant_id, week, garage_id, item_id) DO UPDATE SET used = t.used + excluded.used;
  ELSE
    WITH d AS (SELECT * FROM unnest(tenants, days, garages, items, amounts) AS x(tenant_id, day, garage_id, item_id, used)),
    daily AS (
      UPDATE garage_usage_daily t SET used = t.used - d.used FROM d
      WHERE t.tenant_id = d.tenant_id AND t.day = d.day AND t.garage_id = d.garage_id AND t.item_id = d.item_id
    )
    UPDATE garage_usage_weekly t SET used = t.used - w.used
    FROM (SELECT tenant_id, date_trunc('week', day::timestamp)::date AS week, garage_id, item_id, sum(used) AS used FROM d GROUP BY 1, 2, 3, 4) w
    WHERE t.tenant_id = w.tenant_id AND t.week = w.week AND t.garage_id = w.garage_id AND t.item_id = w.item_id;
  END IF;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "usage_rollup_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign int := TG_ARGV[0]::int;
BEGIN
  -- Most statements (transfers, deliveries) write no usage: one cheap look, then done.
  IF NOT EXISTS (SELECT 1 FROM changed_rows WHERE source_type = 'unit' AND quantity_change < 0 AND type IN ('consumption', 'count')) THEN
    RETURN NULL;
  END IF;
  IF sign > 0 THEN
    INSERT INTO unit_usage_daily AS d (tenant_id, day, unit_id, used, cost_cents)
    SELECT tenant_id, (created_at AT TIME ZONE 'UTC')::date, unit_id, sum(-quantity_change), sum(-quantity_change * unit_cost * 100)
    FROM changed_rows
    WHERE source_type = 'unit' AND quantity_change < 0 AND type IN ('consumption', 'count')
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (tenant_id, day, unit_id) DO UPDATE SET used = d.used + excluded.used, cost_cents = d.cost_cents + excluded.cost_cents;
  ELSE
    UPDATE unit_usage_daily d SET used = d.used - c.used, cost_cents = d.cost_cents - c.cost_cents
    FROM (SELECT tenant_id, (created_at AT TIME ZONE 'UTC')::date AS day, unit_id, sum(-quantity_change) AS used,
                 sum(-quantity_change * unit_cost * 100) AS cost_cents
          FROM changed_rows
          WHERE source_type = 'unit' AND quantity_change < 0 AND type IN ('consumption', 'count')
          GROUP BY 1, 2, 3) c
    WHERE d.tenant_id = c.tenant_id AND d.day = c.day AND d.unit_id = c.unit_id;
  END IF;
  -- The units' garages must not change until this transaction ends: a garage change moves the
  -- history it can see, so usage written meanwhile would stay with the old garage. Waiting for
  -- a change in progress also lets the next statement see the unit's new garage.
  PERFORM 1 FROM units u
  WHERE (u.tenant_id, u.id) IN (SELECT tenant_id, unit_id FROM changed_rows WHERE source_type = 'unit' AND quantity_change < 0 AND type IN ('consumption', 'count'))
  ORDER BY u.tenant_id, u.id
  FOR SHARE OF u;
  PERFORM garage_usage_change(sign, array_agg(tenant_id), array_agg(day), array_agg(garage_id), array_agg(item_id), array_agg(used))
  FROM (SELECT l.tenant_id, (l.created_at AT TIME ZONE 'UTC')::date AS day, u.garage_id, l.item_id, sum(-l.quantity_change) AS used
        FROM changed_rows l JOIN units u ON u.tenant_id = l.tenant_id AND u.id = l.unit_id
        WHERE l.source_type = 'unit' AND l.quantity_change < 0 AND l.type IN ('consumption', 'count') AND u.garage_id IS NOT NULL
        GROUP BY 1, 2, 3, 4) g;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "usage_rollup_follow_unit"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  new_garage uuid;
  days date[];
  items uuid[];
  amounts bigint[];
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NEW.garage_id IS NOT DISTINCT FROM OLD.garage_id THEN
      RETURN NULL;
    END IF;
    new_garage := NEW.garage_id;
  END IF;
  SELECT array_agg(h.day), array_agg(h.item_id), array_agg(h.used) INTO days, items, amounts
  FROM (SELECT (created_at AT TIME ZONE 'UTC')::date AS day, item_id, sum(-quantity_change) AS used
        FROM inventory_logs
        WHERE tenant_id = OLD.tenant_id AND unit_id = OLD.id
          AND source_type = 'unit' AND quantity_change < 0 AND type IN ('consumption', 'count')
        GROUP BY 1, 2) h;
  IF days IS NULL THEN
    RETURN NULL;
  END IF;
  IF OLD.garage_id IS NOT NULL THEN
    PERFORM garage_usage_change(-1, array_fill(OLD.tenant_id, ARRAY[cardinality(days)]), days,
                                array_fill(OLD.garage_id, ARRAY[cardinality(days)]), items, amounts);
  END IF;
  IF new_garage IS NOT NULL THEN
    PERFORM garage_usage_change(1, array_fill(OLD.tenant_id, ARRAY[cardinality(days)]), days,
                                array_fill(new_garage, ARRAY[cardinality(days)]), items, amounts);
  END IF;
  RETURN NULL;
END
$$;
