-- The model each projection was computed with (docs/decisions/037-forecast-read-model.md "The
-- model's version"): a projection of any other version than the running code's is stale. Rows kept
-- from before get 0, which no code writes, and are computed again on their next read. Table-level
-- rights and the tenant policy of migration 0023 cover the new column.
ALTER TABLE "unit_projections" ADD COLUMN "model_version" integer DEFAULT 0 NOT NULL;
