-- Of a projection's short items, how many run out before a check-in: the Forecast's first section
-- counts the properties with one from this column, where it parsed every short property's
-- short_json (36 ms of database time a Forecast read on 1,000 properties). Rows stored before it
-- hold 0 and are stale (FORECAST_MODEL_VERSION 5), so they are computed again on their next read.
ALTER TABLE "unit_projections" ADD COLUMN "items_running_out" integer DEFAULT 0 NOT NULL;