-- DropIndex
DROP INDEX "trade_portfolio_id_trade_date_idx";

-- CreateIndex
CREATE INDEX "trade_portfolio_id_trade_date_id_idx" ON "trade"("portfolio_id", "trade_date", "id");
