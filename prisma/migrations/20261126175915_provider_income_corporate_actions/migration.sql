-- CreateEnum
CREATE TYPE "IncomeOrigin" AS ENUM ('User', 'Provider');

-- CreateEnum
CREATE TYPE "CorporateActionType" AS ENUM ('Split', 'Consolidation');

-- CreateEnum
CREATE TYPE "CorporateActionStatus" AS ENUM ('Pending', 'Applied', 'Dismissed');

-- AlterTable
ALTER TABLE "holding" ADD COLUMN     "user_classified" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "income" ADD COLUMN     "estimated" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "origin" "IncomeOrigin" NOT NULL DEFAULT 'User';

-- CreateTable
CREATE TABLE "provider_income" (
    "holding_id" INTEGER NOT NULL,
    "ex_date" DATE NOT NULL,
    "income_id" INTEGER,
    "user_owned" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "provider_income_pkey" PRIMARY KEY ("holding_id","ex_date")
);

-- CreateTable
CREATE TABLE "corporate_action" (
    "id" SERIAL NOT NULL,
    "portfolio_id" INTEGER NOT NULL,
    "holding_id" INTEGER NOT NULL,
    "type" "CorporateActionType" NOT NULL,
    "date" DATE NOT NULL,
    "numerator" INTEGER NOT NULL,
    "denominator" INTEGER NOT NULL,
    "status" "CorporateActionStatus" NOT NULL DEFAULT 'Pending',
    "trade_id" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "corporate_action_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "provider_income_income_id_key" ON "provider_income"("income_id");

-- CreateIndex
CREATE UNIQUE INDEX "corporate_action_trade_id_key" ON "corporate_action"("trade_id");

-- CreateIndex
CREATE INDEX "corporate_action_portfolio_id_status_idx" ON "corporate_action"("portfolio_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "corporate_action_holding_id_date_key" ON "corporate_action"("holding_id", "date");

-- AddForeignKey
ALTER TABLE "provider_income" ADD CONSTRAINT "provider_income_holding_id_fkey" FOREIGN KEY ("holding_id") REFERENCES "holding"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "provider_income" ADD CONSTRAINT "provider_income_income_id_fkey" FOREIGN KEY ("income_id") REFERENCES "income"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "corporate_action" ADD CONSTRAINT "corporate_action_holding_id_fkey" FOREIGN KEY ("holding_id") REFERENCES "holding"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "corporate_action" ADD CONSTRAINT "corporate_action_trade_id_fkey" FOREIGN KEY ("trade_id") REFERENCES "trade"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- What holdings already hold was set by their users (no provider wrote any before): a holding
-- type other than the default, and every classification field filled in, stay theirs.
UPDATE "holding" SET "user_classified" = array_remove(ARRAY[
  CASE WHEN "holding_type" <> 'Stock' THEN 'holdingType' END,
  CASE WHEN "asset_class" IS NOT NULL THEN 'assetClass' END,
  CASE WHEN "sector" IS NOT NULL THEN 'sector' END,
  CASE WHEN "industry" IS NOT NULL THEN 'industry' END
], NULL);
