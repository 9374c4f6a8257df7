-- Keys a Citus cluster distributed by tenant_id accepts (docs/decisions/042-citus-distribution.md):
-- every primary key and unique index of a company table holds tenant_id, and no foreign key
-- between company tables updates a key holding tenant_id by ON UPDATE CASCADE.
--
-- The stock rows' copy of their item's minimum threshold (item_threshold, migration 0004) was
-- kept by a foreign key to (tenant_id, id, minimum_threshold) with ON UPDATE CASCADE. It is kept
-- now by a row trigger on items that updates the item's stock rows, rows of the same company
-- (co-located on Citus); the foreign key names the item alone. The callers lock those stock rows
-- first, as before (StockLocks.itemRows).
ALTER TABLE "garage_inventory" DROP CONSTRAINT "garage_inventory_item_fk";--> statement-breakpoint
ALTER TABLE "unit_inventory" DROP CONSTRAINT "unit_inventory_item_fk";--> statement-breakpoint
ALTER TABLE "garage_inventory" ADD CONSTRAINT "garage_inventory_item_fk" FOREIGN KEY ("tenant_id","item_id") REFERENCES "public"."items"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unit_inventory" ADD CONSTRAINT "unit_inventory_item_fk" FOREIGN KEY ("tenant_id","item_id") REFERENCES "public"."items"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE FUNCTION "item_threshold_carry"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE unit_inventory SET item_threshold = NEW.minimum_threshold WHERE tenant_id = NEW.tenant_id AND item_id = NEW.id;
  UPDATE garage_inventory SET item_threshold = NEW.minimum_threshold WHERE tenant_id = NEW.tenant_id AND item_id = NEW.id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "items_threshold_carry" AFTER UPDATE OF "minimum_threshold" ON "items"
  FOR EACH ROW WHEN (OLD.minimum_threshold IS DISTINCT FROM NEW.minimum_threshold) EXECUTE FUNCTION "item_threshold_carry"();--> statement-breakpoint
-- The change log of the forecast's inputs was keyed by its id alone.
ALTER TABLE "forecast_changes" DROP CONSTRAINT "forecast_changes_pkey";--> statement-breakpoint
ALTER TABLE "forecast_changes" ADD CONSTRAINT "forecast_changes_tenant_id_id_pk" PRIMARY KEY("tenant_id","id");--> statement-breakpoint
-- An invitation's secret is unique within its company; the link, which carries no company, finds
-- it by the hash alone (on Citus, a query of every shard; the hash is of 256 random bits).
DROP INDEX "invitations_token_hash_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_token_hash_idx" ON "invitations" USING btree ("tenant_id","token_hash");--> statement-breakpoint
CREATE INDEX "invitations_token_lookup_idx" ON "invitations" USING btree ("token_hash");
