-- The rest of what a portfolio's tax reports fold gives it a new version too: its parcel methods
-- by year and by holding, the losses carried into a year, and a sale's parcel picks. Their writes
-- came with a write to the portfolio or the trade until now (which bumped), but a tax settings
-- change of the carried-forward losses alone wrote neither: a read of several statements
-- (ledger/moment.ts) could not see it land between two of them.

CREATE TRIGGER tax_year_method_version_insert AFTER INSERT ON "tax_year_method" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_changed();
CREATE TRIGGER tax_year_method_version_update AFTER UPDATE ON "tax_year_method" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_moved();
CREATE TRIGGER tax_year_method_version_delete AFTER DELETE ON "tax_year_method" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_changed();

CREATE TRIGGER holding_tax_method_version_insert AFTER INSERT ON "holding_tax_method" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_changed();
CREATE TRIGGER holding_tax_method_version_update AFTER UPDATE ON "holding_tax_method" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_moved();
CREATE TRIGGER holding_tax_method_version_delete AFTER DELETE ON "holding_tax_method" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_changed();

CREATE TRIGGER carried_forward_loss_version_insert AFTER INSERT ON "carried_forward_loss" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_changed();
CREATE TRIGGER carried_forward_loss_version_update AFTER UPDATE ON "carried_forward_loss" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_moved();
CREATE TRIGGER carried_forward_loss_version_delete AFTER DELETE ON "carried_forward_loss" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_changed();

-- A parcel pick names its sale; the sale's portfolio gets the version.
CREATE FUNCTION trade_parcel_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM bump_portfolio_versions(ARRAY(SELECT t.portfolio_id FROM changed c JOIN trade t ON t.id = c.sell_trade_id)); RETURN NULL; END $$;

CREATE FUNCTION trade_parcel_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM bump_portfolio_versions(ARRAY(
  SELECT t.portfolio_id FROM (SELECT sell_trade_id FROM old_rows UNION SELECT sell_trade_id FROM new_rows) c JOIN trade t ON t.id = c.sell_trade_id));
RETURN NULL; END $$;

CREATE TRIGGER trade_parcel_version_insert AFTER INSERT ON "trade_parcel" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION trade_parcel_changed();
CREATE TRIGGER trade_parcel_version_update AFTER UPDATE ON "trade_parcel" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION trade_parcel_moved();
CREATE TRIGGER trade_parcel_version_delete AFTER DELETE ON "trade_parcel" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION trade_parcel_changed();
