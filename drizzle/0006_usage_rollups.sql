-- Daily usage totals (docs/decisions/007-usage-rollups.md): reports sum a day of a unit, or of a
-- garage and item, as one row instead of every ledger row of that day. Usage is the one
-- definition of DESIGN.md §4 (server/modules/reports/usage-sql.ts): consumption and negative
-- count rows at units. The primary keys carry the sums (INCLUDE, by hand: drizzle cannot express
-- it) so a range of days is read from the index alone.
CREATE TABLE "garage_usage_daily" (
	"tenant_id" uuid NOT NULL,
	"day" date NOT NULL,
	"garage_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"used" integer NOT NULL,
	CONSTRAINT "garage_usage_daily_tenant_id_day_garage_id_item_id_pk" PRIMARY KEY("tenant_id","day","garage_id","item_id") INCLUDE ("used")
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
-- Ledger rows in or out of the totals: TG_ARGV[0] is +1 for rows written (INSERT, the new side
-- of an UPDATE) and -1 for rows removed (DELETE, the old side of an UPDATE). The application
-- only ever inserts; the other events keep the totals exact whatever writes the ledger. Removal
-- only updates existing totals, so a tenant's cascading delete never inserts a row for it.
-- Runs as the writing role: row-level security keeps it inside the writer's tenant.
CREATE FUNCTION "usage_rollup_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_ARGV[0]::int > 0 THEN
    INSERT INTO unit_usage_daily AS d (tenant_id, day, unit_id, used, cost_cents)
    SELECT tenant_id, (created_at AT TIME ZONE 'UTC')::date, unit_id, sum(-quantity_change), sum(-quantity_change * unit_cost * 100)::bigint
    FROM changed_rows
    WHERE source_type = 'unit' AND quantity_change < 0 AND type IN ('consumption', 'count')
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (tenant_id, day, unit_id) DO UPDATE SET used = d.used + excluded.used, cost_cents = d.cost_cents + excluded.cost_cents;
    INSERT INTO garage_usage_daily AS d (tenant_id, day, garage_id, item_id, used)
    SELECT l.tenant_id, (l.created_at AT TIME ZONE 'UTC')::date, u.garage_id, l.item_id, sum(-l.quantity_change)
    FROM changed_rows l JOIN units u ON u.tenant_id = l.tenant_id AND u.id = l.unit_id
    WHERE l.source_type = 'unit' AND l.quantity_change < 0 AND l.type IN ('consumption', 'count') AND u.garage_id IS NOT NULL
    GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (tenant_id, day, garage_id, item_id) DO UPDATE SET used = d.used + excluded.used;
  ELSE
    UPDATE unit_usage_daily d SET used = d.used - c.used, cost_cents = d.cost_cents - c.cost_cents
    FROM (SELECT tenant_id, (created_at AT TIME ZONE 'UTC')::date AS day, unit_id, sum(-quantity_change) AS used,
                 sum(-quantity_change * unit_cost * 100)::bigint AS cost_cents
          FROM changed_rows
          WHERE source_type = 'unit' AND quantity_change < 0 AND type IN ('consumption', 'count')
          GROUP BY 1, 2, 3) c
    WHERE d.tenant_id = c.tenant_id AND d.day = c.day AND d.unit_id = c.unit_id;
    UPDATE garage_usage_daily d SET used = d.used - c.used
    FROM (SELECT l.tenant_id, (l.created_at AT TIME ZONE 'UTC')::date AS day, u.garage_id, l.item_id, sum(-l.quantity_change) AS used
          FROM changed_rows l JOIN units u ON u.tenant_id = l.tenant_id AND u.id = l.unit_id
          WHERE l.source_type = 'unit' AND l.quantity_change < 0 AND l.type IN ('consumption', 'count') AND u.garage_id IS NOT NULL
          GROUP BY 1, 2, 3, 4) c
    WHERE d.tenant_id = c.tenant_id AND d.day = c.day AND d.garage_id = c.garage_id AND d.item_id = c.item_id;
  END IF;
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
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NEW.garage_id IS NOT DISTINCT FROM OLD.garage_id THEN
      RETURN NULL;
    END IF;
    new_garage := NEW.garage_id;
  END IF;
  IF OLD.garage_id IS NOT NULL THEN
    UPDATE garage_usage_daily d SET used = d.used - h.used
    FROM (SELECT (created_at AT TIME ZONE 'UTC')::date AS day, item_id, sum(-quantity_change) AS used
          FROM inventory_logs
          WHERE tenant_id = OLD.tenant_id AND unit_id = OLD.id
            AND source_type = 'unit' AND quantity_change < 0 AND type IN ('consumption', 'count')
          GROUP BY 1, 2) h
    WHERE d.tenant_id = OLD.tenant_id AND d.day = h.day AND d.garage_id = OLD.garage_id AND d.item_id = h.item_id;
  END IF;
  IF new_garage IS NOT NULL THEN
    INSERT INTO garage_usage_daily AS d (tenant_id, day, garage_id, item_id, used)
    SELECT OLD.tenant_id, (created_at AT TIME ZONE 'UTC')::date, new_garage, item_id, sum(-quantity_change)
    FROM inventory_logs
    WHERE tenant_id = OLD.tenant_id AND unit_id = OLD.id
      AND source_type = 'unit' AND quantity_change < 0 AND type IN ('consumption', 'count')
    GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (tenant_id, day, garage_id, item_id) DO UPDATE SET used = d.used + excluded.used;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "units_usage_follow_garage" AFTER UPDATE OF "garage_id" OR DELETE ON "units" FOR EACH ROW EXECUTE FUNCTION "usage_rollup_follow_unit"();
