ALTER TABLE "tenants" ADD COLUMN "service_level" smallint DEFAULT 95 NOT NULL;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "service_level" smallint;--> statement-breakpoint
ALTER TABLE "item_usage_rates" ADD COLUMN "dispersion" numeric(8, 4) DEFAULT '1' NOT NULL;--> statement-breakpoint
ALTER TABLE "unit_projections" ADD COLUMN "service_level" integer;--> statement-breakpoint
ALTER TABLE "unit_projections" ADD COLUMN "service_json" text DEFAULT 'null' NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD CONSTRAINT "tenants_service_level_range" CHECK ("tenants"."service_level" between 50 and 99);--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_service_level_range" CHECK ("items"."service_level" between 50 and 99);--> statement-breakpoint
ALTER TABLE "item_usage_rates" ADD CONSTRAINT "item_usage_rates_dispersion_range" CHECK ("item_usage_rates"."dispersion" between 0.05 and 50);--> statement-breakpoint
-- An item's own service level changes the lines its pick lists bring: a change row for every
-- property holding it, as for its name, category or default use (migration 0033's function).
CREATE OR REPLACE FUNCTION "forecast_change_item"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_unit uuid;
BEGIN
  IF NEW.name IS DISTINCT FROM OLD.name OR NEW.category IS DISTINCT FROM OLD.category
    OR NEW.usage_per_stay_default IS DISTINCT FROM OLD.usage_per_stay_default
    OR NEW.service_level IS DISTINCT FROM OLD.service_level THEN
    FOR v_unit IN SELECT s.unit_id FROM unit_inventory s WHERE s.tenant_id = NEW.tenant_id AND s.item_id = NEW.id LOOP
      INSERT INTO forecast_changes (tenant_id, unit_id) VALUES (NEW.tenant_id, v_unit);
    END LOOP;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER "items_forecast_change" ON "items";--> statement-breakpoint
CREATE TRIGGER "items_forecast_change" AFTER UPDATE OF "name", "category", "usage_per_stay_default", "service_level" ON "items"
FOR EACH ROW EXECUTE FUNCTION "forecast_change_item"();
