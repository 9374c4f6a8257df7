-- Each stock row carries a copy of its item's minimum threshold, kept equal by a foreign key with
-- ON UPDATE CASCADE and filled on insert by a trigger, so that the rows in alert
-- (quantity <= threshold) can be found and counted through a partial index instead of a join
-- over every stock row of the tenant (docs/decisions/005-stock-threshold-copy.md).
CREATE UNIQUE INDEX "items_threshold_uq" ON "items" USING btree ("tenant_id","id","minimum_threshold");
--> statement-breakpoint
ALTER TABLE "garage_inventory" ADD COLUMN "item_threshold" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "unit_inventory" ADD COLUMN "item_threshold" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- The backfill must see every tenant's rows: row-level security is forced on these tables.
ALTER TABLE "garage_inventory" NO FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "unit_inventory" NO FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "items" NO FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
UPDATE "garage_inventory" s SET "item_threshold" = i."minimum_threshold" FROM "items" i WHERE i."tenant_id" = s."tenant_id" AND i."id" = s."item_id";
--> statement-breakpoint
UPDATE "unit_inventory" s SET "item_threshold" = i."minimum_threshold" FROM "items" i WHERE i."tenant_id" = s."tenant_id" AND i."id" = s."item_id";
--> statement-breakpoint
ALTER TABLE "garage_inventory" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "unit_inventory" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "items" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "garage_inventory" DROP CONSTRAINT "garage_inventory_tenant_id_item_id_items_tenant_id_id_fk";
--> statement-breakpoint
ALTER TABLE "unit_inventory" DROP CONSTRAINT "unit_inventory_tenant_id_item_id_items_tenant_id_id_fk";
--> statement-breakpoint
ALTER TABLE "garage_inventory" ADD CONSTRAINT "garage_inventory_item_fk" FOREIGN KEY ("tenant_id","item_id","item_threshold") REFERENCES "public"."items"("tenant_id","id","minimum_threshold") ON DELETE cascade ON UPDATE cascade;
--> statement-breakpoint
ALTER TABLE "unit_inventory" ADD CONSTRAINT "unit_inventory_item_fk" FOREIGN KEY ("tenant_id","item_id","item_threshold") REFERENCES "public"."items"("tenant_id","id","minimum_threshold") ON DELETE cascade ON UPDATE cascade;
--> statement-breakpoint
-- Inserts name the item only; the trigger copies its threshold (runs as the inserting role, so
-- row-level security limits the lookup to the row's own tenant).
CREATE FUNCTION "stock_row_item_threshold"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT i.minimum_threshold INTO NEW.item_threshold FROM items i WHERE i.tenant_id = NEW.tenant_id AND i.id = NEW.item_id;
  NEW.item_threshold := coalesce(NEW.item_threshold, 0);
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "garage_inventory_item_threshold" BEFORE INSERT ON "garage_inventory" FOR EACH ROW EXECUTE FUNCTION "stock_row_item_threshold"();
--> statement-breakpoint
CREATE TRIGGER "unit_inventory_item_threshold" BEFORE INSERT ON "unit_inventory" FOR EACH ROW EXECUTE FUNCTION "stock_row_item_threshold"();
--> statement-breakpoint
-- Rows in alert, critical (quantity 0) first, newest first: the dashboard's alert lists read the
-- first 100 entries and its counts read only these rows.
CREATE INDEX "unit_inventory_alert_idx" ON "unit_inventory" USING btree ("tenant_id", ("quantity" <= 0), "updated_at", "id") INCLUDE ("quantity") WHERE "quantity" <= "item_threshold";
--> statement-breakpoint
CREATE INDEX "garage_inventory_alert_idx" ON "garage_inventory" USING btree ("tenant_id", ("quantity" <= 0), "updated_at", "id") INCLUDE ("quantity") WHERE "quantity" <= "item_threshold";
--> statement-breakpoint
-- The alert counts are index-only scans: they stay cheap only while the visibility map is fresh,
-- so vacuum these often-updated tables after ~2 % of their rows changed instead of 20 %.
ALTER TABLE "unit_inventory" SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.05);
--> statement-breakpoint
ALTER TABLE "garage_inventory" SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.05);
