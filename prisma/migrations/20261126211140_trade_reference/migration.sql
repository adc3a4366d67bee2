-- AlterTable
ALTER TABLE "trade" ADD COLUMN     "reference" TEXT;

-- CreateIndex
CREATE INDEX "trade_portfolio_id_reference_idx" ON "trade"("portfolio_id", "reference");
