-- The usage totals grow with every request (docs/decisions/011-input-limits.md): `used` becomes
-- bigint and `cost_cents` an unbounded numeric; migration 0009 made the functions that keep them
-- sum in these types. The CHECK constraints drizzle-kit also generated here for the new limits
-- (garage_inventory_quantity_max, unit_inventory_quantity_max, items_count_cost_max) are added
-- NOT VALID by migration 0009 instead.
ALTER TABLE "garage_usage_daily" ALTER COLUMN "used" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "garage_usage_weekly" ALTER COLUMN "used" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "unit_usage_daily" ALTER COLUMN "used" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "unit_usage_daily" ALTER COLUMN "cost_cents" SET DATA TYPE numeric;
