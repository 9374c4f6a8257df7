-- The usage index also carries the columns the cost and assistant reports read, so they sum a
-- period's usage from the index alone instead of visiting ~20,000 ledger pages per month of a
-- large tenant (docs/performance.md, Reports). drizzle cannot express INCLUDE, hence by hand.
DROP INDEX "inventory_logs_usage_idx";
--> statement-breakpoint
CREATE INDEX "inventory_logs_usage_idx" ON "inventory_logs" USING btree ("tenant_id","created_at") INCLUDE ("unit_id","item_id","quantity_change","unit_cost") WHERE "inventory_logs"."source_type" = 'unit' and "inventory_logs"."quantity_change" < 0 and "inventory_logs"."type" in ('consumption', 'count');
