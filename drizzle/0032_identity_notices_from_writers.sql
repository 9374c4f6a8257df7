-- The identity cache's notices (docs/decisions/023-identity-cache.md) where the servers hear them
-- on a Citus cluster too (docs/decisions/042-citus-distribution.md). Servers LISTEN on the
-- coordinator; a trigger of a distributed table fires on the worker holding the row, where a
-- NOTIFY is heard by nobody and makes the worker's part of the transaction impossible to prepare
-- ("cannot PREPARE a transaction that has executed LISTEN, UNLISTEN, or NOTIFY").
-- - memberships (distributed): its trigger goes; the statements that make, change or remove a
--   membership notify themselves (identityChanged, server/modules/auth/identity-cache.ts).
-- - sessions and users (reference tables, a copy on every node, the coordinator's included): their
--   triggers stay and notify only on the coordinator; on PostgreSQL without Citus, always.
DROP TRIGGER "memberships_identity_changed" ON "memberships";--> statement-breakpoint
CREATE OR REPLACE FUNCTION notify_identity_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_on_worker boolean := false;
BEGIN
  -- Called by name through EXECUTE: without Citus the function does not exist.
  IF to_regproc('citus_is_coordinator') IS NOT NULL THEN
    EXECUTE 'SELECT NOT citus_is_coordinator()' INTO v_on_worker;
  END IF;
  IF NOT v_on_worker THEN
    PERFORM pg_notify('identity_changed', CASE TG_OP WHEN 'DELETE' THEN to_jsonb(OLD) ELSE to_jsonb(NEW) END ->> TG_ARGV[0]);
  END IF;
  RETURN NULL;
END;
$$;
