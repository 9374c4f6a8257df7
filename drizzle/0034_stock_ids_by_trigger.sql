-- Ids of stock rows and movements made by BEFORE INSERT triggers instead of column defaults
-- (docs/decisions/042-citus-distribution.md): Citus sends an INSERT … SELECT whole to the company's
-- shard only when the statement calls no volatile function, and a column default not named in the
-- statement is added to it; a trigger runs on the shard, row by row, unseen by the planner.
-- An id given by the statement is kept.
--
-- A new stock row: its id, and its copy of the item's minimum threshold (migration 0008's rule,
-- the item locked FOR KEY SHARE, last in the lock order).
CREATE FUNCTION "stock_row_defaults"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.id IS NULL THEN
    NEW.id := gen_random_uuid();
  END IF;
  SELECT i.minimum_threshold INTO NEW.item_threshold FROM items i WHERE i.tenant_id = NEW.tenant_id AND i.id = NEW.item_id FOR KEY SHARE;
  NEW.item_threshold := coalesce(NEW.item_threshold, 0);
  RETURN NEW;
END
$$;
--> statement-breakpoint
-- A new movement: a time-ordered id (uuid_v7, migration 0027).
CREATE FUNCTION "ledger_row_id"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.id IS NULL THEN
    NEW.id := uuid_v7();
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
ALTER TABLE "garage_inventory" ALTER COLUMN "id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "inventory_logs" ALTER COLUMN "id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "unit_inventory" ALTER COLUMN "id" DROP DEFAULT;--> statement-breakpoint
DROP TRIGGER "garage_inventory_item_threshold" ON "garage_inventory";--> statement-breakpoint
DROP TRIGGER "unit_inventory_item_threshold" ON "unit_inventory";--> statement-breakpoint
DROP FUNCTION "stock_row_item_threshold"();--> statement-breakpoint
CREATE TRIGGER "garage_inventory_defaults" BEFORE INSERT ON "garage_inventory" FOR EACH ROW EXECUTE FUNCTION "stock_row_defaults"();
--> statement-breakpoint
CREATE TRIGGER "unit_inventory_defaults" BEFORE INSERT ON "unit_inventory" FOR EACH ROW EXECUTE FUNCTION "stock_row_defaults"();
--> statement-breakpoint
CREATE TRIGGER "inventory_logs_id" BEFORE INSERT ON "inventory_logs" FOR EACH ROW EXECUTE FUNCTION "ledger_row_id"();
