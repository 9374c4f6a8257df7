-- Reservations and webhook bookkeeping of the Hostaway sync are tenant data (decision 013):
-- row-level security enabled and forced, the tenant policy, and the rights tenant code needs.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['reservations', 'provider_webhook_events']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format($p$CREATE POLICY tenant_isolation ON %I USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)$p$, t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON TABLE %I TO inventory_app', t);
  END LOOP;
END
$$;
