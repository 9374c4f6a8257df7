-- A movement is at a unit or at a garage (source_type), never both: each location index holds
-- only its own rows, so a movement writes one of the two instead of both (a transfer's two rows
-- write two index entries fewer). Queries that name a unit or a garage (= or ANY) match the
-- predicate.
DROP INDEX "inventory_logs_unit_item_idx";--> statement-breakpoint
DROP INDEX "inventory_logs_garage_item_idx";--> statement-breakpoint
CREATE INDEX "inventory_logs_unit_item_idx" ON "inventory_logs" USING btree ("tenant_id","unit_id","item_id") WHERE "inventory_logs"."unit_id" is not null;--> statement-breakpoint
CREATE INDEX "inventory_logs_garage_item_idx" ON "inventory_logs" USING btree ("tenant_id","garage_id","item_id") WHERE "inventory_logs"."garage_id" is not null;