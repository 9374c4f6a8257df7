-- Every server process keeps the identities of live sessions in memory
-- (server/modules/auth/identity-cache.ts, docs/decisions/023-identity-cache.md). These triggers
-- tell them what changed, on the channel identity_changed with the user's id, once the change
-- commits: a session ended or renewed, a membership made, changed or removed, a user's email
-- changed or the user deleted. Each caller's column holding the user id is the trigger argument.
CREATE FUNCTION notify_identity_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('identity_changed', CASE TG_OP WHEN 'DELETE' THEN to_jsonb(OLD) ELSE to_jsonb(NEW) END ->> TG_ARGV[0]);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER sessions_identity_changed AFTER UPDATE OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION notify_identity_changed('user_id');--> statement-breakpoint
CREATE TRIGGER memberships_identity_changed AFTER INSERT OR UPDATE OR DELETE ON memberships
  FOR EACH ROW EXECUTE FUNCTION notify_identity_changed('user_id');--> statement-breakpoint
CREATE TRIGGER users_identity_changed AFTER UPDATE OF email OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION notify_identity_changed('id');
