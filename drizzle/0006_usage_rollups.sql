-- Usage totals per UTC day and week (docs/decisions/007-usage-rollups.md): reports sum a day of a
-- unit, or a day or week of a garage and item, as one row instead of every ledger row of it.
-- Usage is the one definition of docs/product.md "Reports" (server/modules/reports/usage-sql.ts): consumption
-- and negative count rows at units. The primary keys carry the sums (INCLUDE, by hand: drizzle
-- cannot express it) so a range is read from the index alone. A week starts on Monday (UTC).
CREATE TABLE "garage_usage_daily" (
	"tenant_id" uuid NOT NULL,
	"day" date NOT NULL,
	"garage_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"used" integer NOT NULL,
	CONSTRAINT "garage_usage_daily_tenant_id_day_garage_id_item_id_pk" PRIMARY KEY("tenant_id","day","garage_id","item_id") INCLUDE ("used")
);
--> statement-breakpoint
CREATE TABLE "garage_usage_weekly" (
	"tenant_id" uuid NOT NULL,
	"week" date NOT NULL,
	"garage_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"used" integer NOT NULL,
	CONSTRAINT "garage_usage_weekly_tenant_id_week_garage_id_item_id_pk" PRIMARY KEY("tenant_id","week","garage_id","item_id") INCLUDE ("used")
);
--> statement-breakpoint
CREATE TABLE "unit_usage_daily" (
	"tenant_id" uuid NOT NULL,
	"day" date NOT NULL,
	"unit_id" uuid NOT NULL,
	"used" integer NOT NULL,
	"cost_cents" bigint NOT NULL,
	CONSTRAINT "unit_usage_daily_tenant_id_day_unit_id_pk" PRIMARY KEY("tenant_id","day","unit_id") INCLUDE ("used","cost_cents")
);
--> statement-breakpoint
ALTER TABLE "garage_usage_daily" ADD CONSTRAINT "garage_usage_daily_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "garage_usage_weekly" ADD CONSTRAINT "garage_usage_weekly_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unit_usage_daily" ADD CONSTRAINT "unit_usage_daily_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The backfill must see every tenant's rows: row-level security is forced on these tables.
ALTER TABLE "inventory_logs" NO FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "units" NO FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
INSERT INTO "unit_usage_daily" ("tenant_id", "day", "unit_id", "used", "cost_cents")
SELECT "tenant_id", ("created_at" AT TIME ZONE 'UTC')::date, "unit_id", sum(-"quantity_change"), sum(-"quantity_change" * "unit_cost" * 100)::bigint
FROM "inventory_logs"
WHERE "source_type" = 'unit' AND "quantity_change" < 0 AND "type" IN ('consumption', 'count')
GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO "garage_usage_daily" ("tenant_id", "day", "garage_id", "item_id", "used")
SELECT l."tenant_id", (l."created_at" AT TIME ZONE 'UTC')::date, u."garage_id", l."item_id", sum(-l."quantity_change")
FROM "inventory_logs" l JOIN "units" u ON u."tenant_id" = l."tenant_id" AND u."id" = l."unit_id"
WHERE l."source_type" = 'unit' AND l."quantity_change" < 0 AND l."type" IN ('consumption', 'count') AND u."garage_id" IS NOT NULL
GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO "garage_usage_weekly" ("tenant_id", "week", "garage_id", "item_id", "used")
SELECT "tenant_id", date_trunc('week', "day"::timestamp)::date, "garage_id", "item_id", sum("used")
FROM "garage_usage_daily"
GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
ALTER TABLE "inventory_logs" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "units" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "unit_usage_daily" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "unit_usage_daily" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "unit_usage_daily" USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "garage_usage_daily" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "garage_usage_daily" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "garage_usage_daily" USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE "garage_usage_weekly" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "garage_usage_weekly" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "garage_usage_weekly" USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);
--> statement-breakpoint
-- Adds (sign 1) or takes out (sign -1) usage in the garages' daily and weekly totals: one entry
-- per (tenant, day, garage, item) in the parallel arrays, `used` > 0. Additions upsert in key
-- order, so concurrent writers lock rows in the same order; removals only update existing totals
-- (a total taken to 0 stays as a row of 0), so a tenant's cascading delete never inserts a row.
CREATE FUNCTION "garage_usage_change"(sign int, tenants uuid[], days date[], garages uuid[], items uuid[], amounts int[]) RETURNS void LANGUAGE plpgsql AS $$
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
-- Ledger rows in or out of the totals: TG_ARGV[0] is 1 for rows written (INSERT, the new side of
-- an UPDATE) and -1 for rows removed (DELETE, the old side of an UPDATE). The application only
-- ever inserts; the other events keep the totals exact whatever writes the ledger. A unit's usage
-- counts for the garage it is assigned to now. Runs as the writing role: row-level security keeps
-- it inside the writer's tenant.
CREATE FUNCTION "usage_rollup_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign int := TG_ARGV[0]::int;
BEGIN
  -- Most statements (transfers, deliveries) write no usage: one cheap look, then done.
  IF NOT EXISTS (SELECT 1 FROM changed_rows WHERE source_type = 'unit' AND quantity_change < 0 AND type IN ('consumption', 'count')) THEN
    RETURN NULL;
  END IF;
  IF sign > 0 THEN
    INSERT INTO unit_usage_daily AS d (tenant_id, day, unit_id, used, cost_cents)
    SELECT tenant_id, (created_at AT TIME ZONE 'UTC')::date, unit_id, sum(-quantity_change), sum(-quantity_change * unit_cost * 100)::bigint
    FROM changed_rows
    WHERE source_type = 'unit' AND quantity_change < 0 AND type IN ('consumption', 'count')
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (tenant_id, day, unit_id) DO UPDATE SET used = d.used + excluded.used, cost_cents = d.cost_cents + excluded.cost_cents;
  ELSE
    UPDATE unit_usage_daily d SET used = d.used - c.used, cost_cents = d.cost_cents - c.cost_cents
    FROM (SELECT tenant_id, (created_at AT TIME ZONE 'UTC')::date AS day, unit_id, sum(-quantity_change) AS used,
                 sum(-quantity_change * unit_cost * 100)::bigint AS cost_cents
          FROM changed_rows
          WHERE source_type = 'unit' AND quantity_change < 0 AND type IN ('consumption', 'count')
          GROUP BY 1, 2, 3) c
    WHERE d.tenant_id = c.tenant_id AND d.day = c.day AND d.unit_id = c.unit_id;
  END IF;
  PERFORM garage_usage_change(sign, array_agg(tenant_id), array_agg(day), array_agg(garage_id), array_agg(item_id), array_agg(used))
  FROM (SELECT l.tenant_id, (l.created_at AT TIME ZONE 'UTC')::date AS day, u.garage_id, l.item_id, sum(-l.quantity_change)::int AS used
        FROM changed_rows l JOIN units u ON u.tenant_id = l.tenant_id AND u.id = l.unit_id
        WHERE l.source_type = 'unit' AND l.quantity_change < 0 AND l.type IN ('consumption', 'count') AND u.garage_id IS NOT NULL
        GROUP BY 1, 2, 3, 4) g;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "inventory_logs_usage_insert" AFTER INSERT ON "inventory_logs" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "usage_rollup_apply"('1');
--> statement-breakpoint
CREATE TRIGGER "inventory_logs_usage_delete" AFTER DELETE ON "inventory_logs" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "usage_rollup_apply"('-1');
--> statement-breakpoint
CREATE TRIGGER "inventory_logs_usage_update_new" AFTER UPDATE ON "inventory_logs" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "usage_rollup_apply"('1');
--> statement-breakpoint
CREATE TRIGGER "inventory_logs_usage_update_old" AFTER UPDATE ON "inventory_logs" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "usage_rollup_apply"('-1');
--> statement-breakpoint
-- A unit's usage history counts for the garage it is assigned to now: when it changes garage it
-- leaves its old garage's totals and joins its new one's; when it is deleted it leaves them.
CREATE FUNCTION "usage_rollup_follow_unit"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  new_garage uuid;
  days date[];
  items uuid[];
  amounts int[];
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NEW.garage_id IS NOT DISTINCT FROM OLD.garage_id THEN
      RETURN NULL;
    END IF;
    new_garage := NEW.garage_id;
  END IF;
  SELECT array_agg(h.day), array_agg(h.item_id), array_agg(h.used) INTO days, items, amounts
  FROM (SELECT (created_at AT TIME ZONE 'UTC')::date AS day, item_id, sum(-quantity_change)::int AS used
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
--> statement-breakpoint
CREATE TRIGGER "units_usage_follow_garage" AFTER UPDATE OF "garage_id" OR DELETE ON "units" FOR EACH ROW EXECUTE FUNCTION "usage_rollup_follow_unit"();
--> statement-breakpoint
-- The reorder report's units' shortfall reads only the rows in alert (quantity <= the item's
-- minimum): the alert index carries what it sums, so it is read from the index alone.
DROP INDEX "unit_inventory_alert_idx";
--> statement-breakpoint
CREATE INDEX "unit_inventory_alert_idx" ON "unit_inventory" USING btree ("tenant_id", ("quantity" <= 0), "updated_at", "id") INCLUDE ("quantity", "unit_id", "item_id", "item_threshold") WHERE "quantity" <= "item_threshold";
