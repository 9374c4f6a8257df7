CREATE TABLE "forecast_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"unit_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE TABLE "unit_projections" (
	"tenant_id" uuid NOT NULL,
	"unit_id" uuid NOT NULL,
	"end_day" date NOT NULL,
	"day" date NOT NULL,
	"rates_learned_at" timestamp with time zone,
	"stays" integer NOT NULL,
	"items_short" integer NOT NULL,
	"first_shortfall_date" date,
	"first_runs_out" boolean,
	"first_item_id" uuid,
	"short_json" text NOT NULL,
	"pick_json" text NOT NULL,
	"brings" json NOT NULL,
	CONSTRAINT "unit_projections_tenant_id_unit_id_end_day_pk" PRIMARY KEY("tenant_id","unit_id","end_day")
);
--> statement-breakpoint
ALTER TABLE "unit_projections" ADD CONSTRAINT "unit_projections_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unit_projections" ADD CONSTRAINT "unit_projections_tenant_id_unit_id_units_tenant_id_id_fk" FOREIGN KEY ("tenant_id","unit_id") REFERENCES "public"."units"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "forecast_changes_unit_idx" ON "forecast_changes" USING btree ("tenant_id","unit_id");--> statement-breakpoint
-- Tenant data (decision 013): row-level security enabled and forced, the tenant policy, and the
-- rights tenant code needs.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['unit_projections', 'forecast_changes']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format($p$CREATE POLICY tenant_isolation ON %I USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)$p$, t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON TABLE %I TO inventory_app', t);
  END LOOP;
END
$$;
--> statement-breakpoint
-- What changed a property's projection inputs (docs/decisions/037-forecast-read-model.md): a row
-- per property per statement, appended, never updated, so a writer never waits for another here.
-- Runs as the writing role: row-level security keeps it inside the writer's tenant.
--
-- A stock row's quantity or minimum changed: one row (a plus press is one single-row statement).
CREATE FUNCTION "forecast_change_stock_row"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO forecast_changes (tenant_id, unit_id) VALUES (NEW.tenant_id, NEW.unit_id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Rows of a table with tenant_id and unit_id in or out (stock rows, stays), per statement: one row
-- per property however many rows (onboarding, a deletion, a calendar's sync).
CREATE FUNCTION "forecast_change_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO forecast_changes (tenant_id, unit_id) SELECT DISTINCT c.tenant_id, c.unit_id FROM changed_rows c;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Stays updated, per statement: the properties of their old and new rows.
CREATE FUNCTION "forecast_change_rows_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO forecast_changes (tenant_id, unit_id)
  SELECT tenant_id, unit_id FROM old_rows UNION SELECT tenant_id, unit_id FROM new_rows;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A property's typical guests (the guests of its stays without a count).
CREATE FUNCTION "forecast_change_unit"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.typical_guests IS DISTINCT FROM OLD.typical_guests THEN
    INSERT INTO forecast_changes (tenant_id, unit_id) VALUES (NEW.tenant_id, NEW.id);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- An item's name or category (stored with the projections' lines, whose order the name is) or its
-- default use per stay (the rate of a company without usage of it): every property holding it.
CREATE FUNCTION "forecast_change_item"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.name IS DISTINCT FROM OLD.name OR NEW.category IS DISTINCT FROM OLD.category
    OR NEW.usage_per_stay_default IS DISTINCT FROM OLD.usage_per_stay_default THEN
    INSERT INTO forecast_changes (tenant_id, unit_id)
    SELECT s.tenant_id, s.unit_id FROM unit_inventory s WHERE s.tenant_id = NEW.tenant_id AND s.item_id = NEW.id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "unit_inventory_forecast_change_update" AFTER UPDATE OF "quantity", "item_threshold" ON "unit_inventory"
FOR EACH ROW EXECUTE FUNCTION "forecast_change_stock_row"();
--> statement-breakpoint
CREATE TRIGGER "unit_inventory_forecast_change_insert" AFTER INSERT ON "unit_inventory" REFERENCING NEW TABLE AS changed_rows
FOR EACH STATEMENT EXECUTE FUNCTION "forecast_change_rows"();
--> statement-breakpoint
CREATE TRIGGER "unit_inventory_forecast_change_delete" AFTER DELETE ON "unit_inventory" REFERENCING OLD TABLE AS changed_rows
FOR EACH STATEMENT EXECUTE FUNCTION "forecast_change_rows"();
--> statement-breakpoint
CREATE TRIGGER "reservations_forecast_change_insert" AFTER INSERT ON "reservations" REFERENCING NEW TABLE AS changed_rows
FOR EACH STATEMENT EXECUTE FUNCTION "forecast_change_rows"();
--> statement-breakpoint
CREATE TRIGGER "reservations_forecast_change_delete" AFTER DELETE ON "reservations" REFERENCING OLD TABLE AS changed_rows
FOR EACH STATEMENT EXECUTE FUNCTION "forecast_change_rows"();
--> statement-breakpoint
CREATE TRIGGER "reservations_forecast_change_update" AFTER UPDATE ON "reservations" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION "forecast_change_rows_updated"();
--> statement-breakpoint
CREATE TRIGGER "units_forecast_change" AFTER UPDATE OF "typical_guests" ON "units"
FOR EACH ROW EXECUTE FUNCTION "forecast_change_unit"();
--> statement-breakpoint
CREATE TRIGGER "items_forecast_change" AFTER UPDATE OF "name", "category", "usage_per_stay_default" ON "items"
FOR EACH ROW EXECUTE FUNCTION "forecast_change_item"();
