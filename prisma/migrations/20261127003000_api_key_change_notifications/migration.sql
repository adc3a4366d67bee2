-- Every process may cache key lookups (src/modules/accounts/key-cache.ts); this tells all of them,
-- at commit, that a cached lookup may be wrong, whatever code path or process made the change:
-- NOTIFY api_key_changed with the changed row as '<table>:<id>'. What a lookup answers is the key,
-- its account (id and name) and its client (id and permission), so:
--   - any UPDATE or DELETE of an api_key row (a revoke, a rotation, a key moved to another client;
--     the cascades of an account's or a client's delete fire these row triggers too);
--   - a client's permission change or delete, an account's rename or delete;
--   - an INSERT into api_key ('api_key:new'): a key that was looked up before it existed may be
--     remembered as unknown for a moment, and is now valid;
--   - a TRUNCATE of any of the three ('*': everything).
-- Notifications are delivered after commit only; a rolled-back change sends none.

CREATE FUNCTION notify_api_key_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('api_key_changed', CASE TG_OP WHEN 'INSERT' THEN 'api_key:new' ELSE '*' END);
  ELSE
    PERFORM pg_notify('api_key_changed', TG_TABLE_NAME || ':' || OLD.id);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER api_key_changed AFTER UPDATE OR DELETE ON "api_key"
  FOR EACH ROW EXECUTE FUNCTION notify_api_key_changed();
CREATE TRIGGER api_key_inserted AFTER INSERT ON "api_key"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_api_key_changed();
CREATE TRIGGER api_key_truncated AFTER TRUNCATE ON "api_key"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_api_key_changed();

CREATE TRIGGER client_permission_changed AFTER UPDATE OF "permission" ON "client"
  FOR EACH ROW WHEN (OLD."permission" IS DISTINCT FROM NEW."permission") EXECUTE FUNCTION notify_api_key_changed();
CREATE TRIGGER client_deleted AFTER DELETE ON "client"
  FOR EACH ROW EXECUTE FUNCTION notify_api_key_changed();
CREATE TRIGGER client_truncated AFTER TRUNCATE ON "client"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_api_key_changed();

CREATE TRIGGER account_renamed AFTER UPDATE OF "name" ON "account"
  FOR EACH ROW WHEN (OLD."name" IS DISTINCT FROM NEW."name") EXECUTE FUNCTION notify_api_key_changed();
CREATE TRIGGER account_deleted AFTER DELETE ON "account"
  FOR EACH ROW EXECUTE FUNCTION notify_api_key_changed();
CREATE TRIGGER account_truncated AFTER TRUNCATE ON "account"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_api_key_changed();
