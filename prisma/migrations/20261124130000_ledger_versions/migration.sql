-- Versions of what computed series are read from. Every statement that writes a portfolio's ledger
-- (the portfolio, its holdings, trades, income, cash accounts and their transactions, its custom
-- prices) gives that portfolio a new version, and every statement that writes an account's market
-- prices or exchange rates gives the account one, in the same transaction, by trigger: whatever
-- code path or process wrote it. A computed series cached under (portfolio version, account
-- version) is therefore never read once anything under it changed, from any process.
-- Versions are values of one sequence, so they never repeat (a portfolio id reused after a reset
-- cannot meet an old version). Statement-level triggers: an import of a million prices bumps once.

CREATE SEQUENCE "ledger_version_seq";

CREATE TABLE "portfolio_version" (
    "portfolio_id" INTEGER NOT NULL,
    "version" BIGINT NOT NULL,
    CONSTRAINT "portfolio_version_pkey" PRIMARY KEY ("portfolio_id")
);

CREATE TABLE "account_market_version" (
    "account_id" INTEGER NOT NULL,
    "version" BIGINT NOT NULL,
    CONSTRAINT "account_market_version_pkey" PRIMARY KEY ("account_id")
);

-- In id order, so two transactions bumping the same portfolios lock their rows in the same order.
CREATE FUNCTION bump_portfolio_versions(ids INTEGER[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO portfolio_version (portfolio_id, version)
  SELECT id, nextval('ledger_version_seq') FROM (SELECT DISTINCT id FROM unnest(ids) AS id WHERE id IS NOT NULL ORDER BY id) s
  ON CONFLICT (portfolio_id) DO UPDATE SET version = EXCLUDED.version;
$$;

CREATE FUNCTION bump_account_market_versions(ids INTEGER[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO account_market_version (account_id, version)
  SELECT id, nextval('ledger_version_seq') FROM (SELECT DISTINCT id FROM unnest(ids) AS id WHERE id IS NOT NULL ORDER BY id) s
  ON CONFLICT (account_id) DO UPDATE SET version = EXCLUDED.version;
$$;

-- Each trigger function reads the statement's rows as `changed` (the new rows of an INSERT or
-- UPDATE, the old rows of a DELETE).
CREATE FUNCTION portfolio_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM bump_portfolio_versions(ARRAY(SELECT id FROM changed)); RETURN NULL; END $$;

CREATE FUNCTION portfolio_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM bump_portfolio_versions(ARRAY(SELECT portfolio_id FROM changed)); RETURN NULL; END $$;

CREATE FUNCTION cash_transaction_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM bump_portfolio_versions(ARRAY(SELECT a.portfolio_id FROM changed c JOIN cash_account a ON a.id = c.cash_account_id)); RETURN NULL; END $$;

CREATE FUNCTION holding_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM bump_portfolio_versions(ARRAY(SELECT h.portfolio_id FROM changed c JOIN holding h ON h.id = c.holding_id)); RETURN NULL; END $$;

CREATE FUNCTION market_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM bump_account_market_versions(ARRAY(SELECT account_id FROM changed)); RETURN NULL; END $$;

CREATE TRIGGER portfolio_version_insert AFTER INSERT ON "portfolio" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION portfolio_changed();
CREATE TRIGGER portfolio_version_update AFTER UPDATE ON "portfolio" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION portfolio_changed();

CREATE TRIGGER holding_version_insert AFTER INSERT ON "holding" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_changed();
CREATE TRIGGER holding_version_update AFTER UPDATE ON "holding" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_changed();
CREATE TRIGGER holding_version_delete AFTER DELETE ON "holding" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_changed();

CREATE TRIGGER trade_version_insert AFTER INSERT ON "trade" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_changed();
CREATE TRIGGER trade_version_update AFTER UPDATE ON "trade" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_changed();
CREATE TRIGGER trade_version_delete AFTER DELETE ON "trade" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_changed();

CREATE TRIGGER income_version_insert AFTER INSERT ON "income" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_changed();
CREATE TRIGGER income_version_update AFTER UPDATE ON "income" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_changed();
CREATE TRIGGER income_version_delete AFTER DELETE ON "income" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_changed();

CREATE TRIGGER cash_account_version_insert AFTER INSERT ON "cash_account" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_changed();
CREATE TRIGGER cash_account_version_update AFTER UPDATE ON "cash_account" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_changed();
CREATE TRIGGER cash_account_version_delete AFTER DELETE ON "cash_account" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_changed();

CREATE TRIGGER cash_transaction_version_insert AFTER INSERT ON "cash_transaction" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cash_transaction_changed();
CREATE TRIGGER cash_transaction_version_update AFTER UPDATE ON "cash_transaction" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cash_transaction_changed();
CREATE TRIGGER cash_transaction_version_delete AFTER DELETE ON "cash_transaction" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cash_transaction_changed();

CREATE TRIGGER custom_price_version_insert AFTER INSERT ON "custom_price" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION holding_rows_changed();
CREATE TRIGGER custom_price_version_update AFTER UPDATE ON "custom_price" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION holding_rows_changed();
CREATE TRIGGER custom_price_version_delete AFTER DELETE ON "custom_price" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION holding_rows_changed();

CREATE TRIGGER market_price_version_insert AFTER INSERT ON "market_price" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION market_rows_changed();
CREATE TRIGGER market_price_version_update AFTER UPDATE ON "market_price" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION market_rows_changed();
CREATE TRIGGER market_price_version_delete AFTER DELETE ON "market_price" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION market_rows_changed();

CREATE TRIGGER fx_rate_version_insert AFTER INSERT ON "fx_rate" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION market_rows_changed();
CREATE TRIGGER fx_rate_version_update AFTER UPDATE ON "fx_rate" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION market_rows_changed();
CREATE TRIGGER fx_rate_version_delete AFTER DELETE ON "fx_rate" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION market_rows_changed();
