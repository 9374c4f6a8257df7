-- Every tenant policy (decision 013) written `tenant_id = ANY (ARRAY[<the transaction's tenant>])`
-- instead of `tenant_id = <the transaction's tenant>` (docs/decisions/042-citus-distribution.md).
-- Same rows, same index use. With an equality, PostgreSQL joins the policy and a query's own
-- `tenant_id = $1` into one equivalence class and derives `$1 = <tenant>` as a pseudoconstant
-- condition, and Citus on PostgreSQL 15 and 16 refuses any outer join of distributed tables that
-- carries one ("Distributed queries with outer joins and pseudoconstant quals are not
-- supported"): every LEFT JOIN between company tables failed. An array comparison is not an
-- equivalence, so nothing is derived. A new tenant table's policy takes the same form.
DO $$
DECLARE
  p record;
  v_filter text;
BEGIN
  FOR p IN SELECT tablename FROM pg_policies WHERE schemaname = 'public' AND policyname = 'tenant_isolation' ORDER BY tablename LOOP
    v_filter := format($f$%I = ANY (ARRAY[nullif(current_setting('app.tenant_id', true), '')::uuid])$f$,
                       CASE WHEN p.tablename = 'tenants' THEN 'id' ELSE 'tenant_id' END);
    EXECUTE format('ALTER POLICY tenant_isolation ON %I USING (%s) WITH CHECK (%s)', p.tablename, v_filter, v_filter);
  END LOOP;
END
$$;
