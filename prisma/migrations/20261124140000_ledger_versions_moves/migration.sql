-- An UPDATE can move a row to another portfolio (a cash transaction to another account): both the
-- portfolio it left and the one it joined must get a new version. The update triggers of
-- ledger_versions saw only the new rows; these see the old rows and the new.

CREATE FUNCTION portfolio_rows_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM bump_portfolio_versions(ARRAY(SELECT portfolio_id FROM old_rows UNION SELECT portfolio_id FROM new_rows)); RETURN NULL; END $$;

CREATE FUNCTION cash_transaction_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM bump_portfolio_versions(ARRAY(
  SELECT a.portfolio_id FROM (SELECT cash_account_id FROM old_rows UNION SELECT cash_account_id FROM new_rows) c JOIN cash_account a ON a.id = c.cash_account_id));
RETURN NULL; END $$;

CREATE FUNCTION holding_rows_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM bump_portfolio_versions(ARRAY(
  SELECT h.portfolio_id FROM (SELECT holding_id FROM old_rows UNION SELECT holding_id FROM new_rows) c JOIN holding h ON h.id = c.holding_id));
RETURN NULL; END $$;

CREATE FUNCTION market_rows_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM bump_account_market_versions(ARRAY(SELECT account_id FROM old_rows UNION SELECT account_id FROM new_rows)); RETURN NULL; END $$;

DROP TRIGGER holding_version_update ON "holding";
CREATE TRIGGER holding_version_update AFTER UPDATE ON "holding" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_moved();
DROP TRIGGER trade_version_update ON "trade";
CREATE TRIGGER trade_version_update AFTER UPDATE ON "trade" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_moved();
DROP TRIGGER income_version_update ON "income";
CREATE TRIGGER income_version_update AFTER UPDATE ON "income" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_moved();
DROP TRIGGER cash_account_version_update ON "cash_account";
CREATE TRIGGER cash_account_version_update AFTER UPDATE ON "cash_account" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_moved();
DROP TRIGGER cash_transaction_version_update ON "cash_transaction";
CREATE TRIGGER cash_transaction_version_update AFTER UPDATE ON "cash_transaction" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cash_transaction_moved();
DROP TRIGGER custom_price_version_update ON "custom_price";
CREATE TRIGGER custom_price_version_update AFTER UPDATE ON "custom_price" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION holding_rows_moved();
DROP TRIGGER market_price_version_update ON "market_price";
CREATE TRIGGER market_price_version_update AFTER UPDATE ON "market_price" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION market_rows_moved();
DROP TRIGGER fx_rate_version_update ON "fx_rate";
CREATE TRIGGER fx_rate_version_update AFTER UPDATE ON "fx_rate" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION market_rows_moved();
