-- A ledger row that was undone is no longer usage (docs/decisions/024-undo-by-reverse-movements.md):
-- `reversed_at` marks it, the one column of the ledger ever updated. Usage (docs/product.md
-- "Stock movements and statuses") gets its one SQL home, `ledger_is_usage`: the daily totals'
-- triggers call it, server/modules/stock/rules.ts calls it, and the partial usage index is its
-- body written out (a plain SQL function is inlined into the calling query, so queries calling it
-- still match the index).
DROP INDEX "inventory_logs_usage_idx";--> statement-breakpoint
ALTER TABLE "inventory_logs" ADD COLUMN "reversed_at" timestamp with time zone;--> statement-breakpoint
CREATE FUNCTION "ledger_is_usage"(source_type text, quantity_change integer, type text, reversed_at timestamptz) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN source_type = 'unit' AND quantity_change < 0 AND type IN ('consumption', 'count') AND reversed_at IS NULL;
--> statement-breakpoint
-- The totals' triggers as in migration 0009, with usage read through ledger_is_usage: marking a
-- row undone (an UPDATE) takes it out of the totals.
CREATE OR REPLACE FUNCTION "usage_rollup_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign int := TG_ARGV[0]::int;
BEGIN
  -- Most statements (transfers, deliveries) write no usage: one cheap look, then done.
  IF NOT EXISTS (SELECT 1 FROM changed_rows WHERE ledger_is_usage(source_type, quantity_change, type, reversed_at)) THEN
    RETURN NULL;
  END IF;
  IF sign > 0 THEN
    INSERT INTO unit_usage_daily AS d (tenant_id, day, unit_id, used, cost_cents)
    SELECT tenant_id, (created_at AT TIME ZONE 'UTC')::date, unit_id, sum(-quantity_change), sum(-quantity_change * unit_cost * 100)
    FROM changed_rows
    WHERE ledger_is_usage(source_type, quantity_change, type, reversed_at)
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (tenant_id, day, unit_id) DO UPDATE SET used = d.used + excluded.used, cost_cents = d.cost_cents + excluded.cost_cents;
  ELSE
    UPDATE unit_usage_daily d SET used = d.used - c.used, cost_cents = d.cost_cents - c.cost_cents
    FROM (SELECT tenant_id, (created_at AT TIME ZONE 'UTC')::date AS day, unit_id, sum(-quantity_change) AS used,
                 sum(-quantity_change * unit_cost * 100) AS cost_cents
          FROM changed_rows
          WHERE ledger_is_usage(source_type, quantity_change, type, reversed_at)
          GROUP BY 1, 2, 3) c
    WHERE d.tenant_id = c.tenant_id AND d.day = c.day AND d.unit_id = c.unit_id;
  END IF;
  -- The units' garages must not change until this transaction ends: a garage change moves the
  -- history it can see, so usage written meanwhile would stay with the old garage. Waiting for
  -- a change in progress also lets the next statement see the unit's new garage.
  PERFORM 1 FROM units u
  WHERE (u.tenant_id, u.id) IN (SELECT tenant_id, unit_id FROM changed_rows WHERE ledger_is_usage(source_type, quantity_change, type, reversed_at))
  ORDER BY u.tenant_id, u.id
  FOR SHARE OF u;
  PERFORM garage_usage_change(sign, array_agg(tenant_id), array_agg(day), array_agg(garage_id), array_agg(item_id), array_agg(used))
  FROM (SELECT l.tenant_id, (l.created_at AT TIME ZONE 'UTC')::date AS day, u.garage_id, l.item_id, sum(-l.quantity_change) AS used
        FROM changed_rows l JOIN units u ON u.tenant_id = l.tenant_id AND u.id = l.unit_id
        WHERE ledger_is_usage(l.source_type, l.quantity_change, l.type, l.reversed_at) AND u.garage_id IS NOT NULL
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
          AND ledger_is_usage(source_type, quantity_change, type, reversed_at)
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
--> statement-breakpoint
-- Rows undone before this migration: their reverse notes them ('Undo of {id}'). Row-level
-- security is forced on the ledger: the backfill must see every tenant's rows.
ALTER TABLE "inventory_logs" NO FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
UPDATE "inventory_logs" o SET "reversed_at" = r."created_at"
FROM "inventory_logs" r
WHERE r."tenant_id" = o."tenant_id" AND r."note" = 'Undo of ' || o."id"::text AND o."reversed_at" IS NULL;
--> statement-breakpoint
ALTER TABLE "inventory_logs" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE INDEX "inventory_logs_usage_idx" ON "inventory_logs" USING btree ("tenant_id","created_at") INCLUDE ("unit_id","item_id","quantity_change","unit_cost") WHERE "inventory_logs"."source_type" = 'unit' and "inventory_logs"."quantity_change" < 0 and "inventory_logs"."type" in ('consumption', 'count') and "inventory_logs"."reversed_at" is null;
