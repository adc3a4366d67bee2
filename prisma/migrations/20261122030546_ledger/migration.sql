-- CreateEnum
CREATE TYPE "HoldingType" AS ENUM ('Stock', 'Etf', 'Fund', 'Crypto', 'Custom', 'Cash');

-- CreateEnum
CREATE TYPE "TradeType" AS ENUM ('Buy', 'Sell', 'Split', 'Consolidation', 'Bonus', 'ReturnOfCapital', 'CostBaseIncrease', 'CostBaseDecrease', 'OpeningBalance', 'Cancellation', 'TransferIn', 'TransferOut');

-- CreateEnum
CREATE TYPE "ParcelMethod" AS ENUM ('FIFO', 'LIFO', 'MaximiseGain', 'MinimiseGain', 'MinimiseCGT');

-- CreateEnum
CREATE TYPE "Permission" AS ENUM ('Read', 'ReadWrite');

-- CreateEnum
CREATE TYPE "CashTransactionType" AS ENUM ('Deposit', 'Withdrawal', 'InterestPayment', 'Fee', 'InterestCharged');

-- CreateEnum
CREATE TYPE "DrpRounding" AS ENUM ('Down', 'Nearest', 'Up');

-- AlterTable
ALTER TABLE "api_key" ADD COLUMN     "client_id" INTEGER;

-- AlterTable
ALTER TABLE "portfolio" ADD COLUMN     "client_id" INTEGER,
ADD COLUMN     "default_method" "ParcelMethod" NOT NULL DEFAULT 'FIFO';

-- CreateTable
CREATE TABLE "security" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER,
    "symbol" VARCHAR(20) NOT NULL,
    "exchange" VARCHAR(10) NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "currency_code" CHAR(3) NOT NULL,
    "security_type" "HoldingType" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "security_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "holding" (
    "id" SERIAL NOT NULL,
    "portfolio_id" INTEGER NOT NULL,
    "symbol" VARCHAR(20) NOT NULL,
    "exchange" VARCHAR(10) NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "currency_code" CHAR(3) NOT NULL,
    "holding_type" "HoldingType" NOT NULL,
    "notes" TEXT NOT NULL DEFAULT '',
    "asset_class" VARCHAR(100),
    "sector" VARCHAR(100),
    "industry" VARCHAR(100),
    "drp_enabled" BOOLEAN NOT NULL DEFAULT false,
    "drp_rounding" "DrpRounding" NOT NULL DEFAULT 'Down',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "holding_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "holding_symbol_change" (
    "id" SERIAL NOT NULL,
    "holding_id" INTEGER NOT NULL,
    "from_symbol" VARCHAR(20) NOT NULL,
    "from_exchange" VARCHAR(10) NOT NULL,
    "to_symbol" VARCHAR(20) NOT NULL,
    "to_exchange" VARCHAR(10) NOT NULL,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "holding_symbol_change_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "trade" (
    "id" SERIAL NOT NULL,
    "portfolio_id" INTEGER NOT NULL,
    "holding_id" INTEGER NOT NULL,
    "trade_type" "TradeType" NOT NULL,
    "trade_date" DATE NOT NULL,
    "quantity" DECIMAL(24,8) NOT NULL,
    "price" DECIMAL(24,8) NOT NULL,
    "brokerage" DECIMAL(19,4) NOT NULL DEFAULT 0,
    "currency_code" CHAR(3) NOT NULL,
    "exchange_rate" DECIMAL(20,10) NOT NULL DEFAULT 1,
    "source_id" UUID,
    "notes" TEXT NOT NULL DEFAULT '',
    "acquisition_date" DATE,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "trade_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "trade_parcel" (
    "sell_trade_id" INTEGER NOT NULL,
    "parcel_trade_id" INTEGER NOT NULL,
    "quantity" DECIMAL(24,8) NOT NULL,

    CONSTRAINT "trade_parcel_pkey" PRIMARY KEY ("sell_trade_id","parcel_trade_id")
);

-- CreateTable
CREATE TABLE "trade_attachment" (
    "trade_id" INTEGER NOT NULL,
    "file_name" VARCHAR(255) NOT NULL,
    "content_type" VARCHAR(100) NOT NULL,
    "size" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "trade_attachment_pkey" PRIMARY KEY ("trade_id")
);

-- CreateTable
CREATE TABLE "income" (
    "id" SERIAL NOT NULL,
    "portfolio_id" INTEGER NOT NULL,
    "holding_id" INTEGER NOT NULL,
    "ex_dividend_date" DATE NOT NULL,
    "paid_date" DATE NOT NULL,
    "franked_amount" DECIMAL(19,4) NOT NULL DEFAULT 0,
    "unfranked_amount" DECIMAL(19,4) NOT NULL DEFAULT 0,
    "franking_credits" DECIMAL(19,4) NOT NULL DEFAULT 0,
    "foreign_income" DECIMAL(19,4) NOT NULL DEFAULT 0,
    "foreign_tax_paid" DECIMAL(19,4) NOT NULL DEFAULT 0,
    "withholding_tax" DECIMAL(19,4) NOT NULL DEFAULT 0,
    "currency_code" CHAR(3) NOT NULL,
    "exchange_rate" DECIMAL(20,10) NOT NULL DEFAULT 1,
    "is_trust_income" BOOLEAN NOT NULL DEFAULT false,
    "is_reinvested" BOOLEAN NOT NULL DEFAULT false,
    "drp_quantity" DECIMAL(24,8),
    "drp_price" DECIMAL(24,8),
    "components" JSONB,
    "notes" TEXT NOT NULL DEFAULT '',
    "is_confirmed" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "income_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "cash_account" (
    "id" SERIAL NOT NULL,
    "portfolio_id" INTEGER NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "currency_code" CHAR(3) NOT NULL,
    "institution" VARCHAR(200),
    "sync_trades" BOOLEAN NOT NULL DEFAULT false,
    "sync_income" BOOLEAN NOT NULL DEFAULT false,
    "settlement_days" INTEGER NOT NULL DEFAULT 2,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "cash_account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "cash_transaction" (
    "id" SERIAL NOT NULL,
    "cash_account_id" INTEGER NOT NULL,
    "type" "CashTransactionType" NOT NULL,
    "date" DATE NOT NULL,
    "amount" DECIMAL(19,4) NOT NULL,
    "notes" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "cash_transaction_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "custom_price" (
    "id" SERIAL NOT NULL,
    "holding_id" INTEGER NOT NULL,
    "date" DATE NOT NULL,
    "price" DECIMAL(24,8) NOT NULL,

    CONSTRAINT "custom_price_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "market_price" (
    "account_id" INTEGER NOT NULL,
    "symbol" VARCHAR(20) NOT NULL,
    "exchange" VARCHAR(10) NOT NULL,
    "date" DATE NOT NULL,
    "close" DECIMAL(24,8) NOT NULL,

    CONSTRAINT "market_price_pkey" PRIMARY KEY ("account_id","symbol","exchange","date")
);

-- CreateTable
CREATE TABLE "fx_rate" (
    "account_id" INTEGER NOT NULL,
    "base" CHAR(3) NOT NULL,
    "quote" CHAR(3) NOT NULL,
    "date" DATE NOT NULL,
    "rate" DECIMAL(20,10) NOT NULL,

    CONSTRAINT "fx_rate_pkey" PRIMARY KEY ("account_id","base","quote","date")
);

-- CreateTable
CREATE TABLE "client" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "first_name" VARCHAR(100) NOT NULL,
    "last_name" VARCHAR(100) NOT NULL,
    "email" VARCHAR(254),
    "permission" "Permission" NOT NULL DEFAULT 'Read',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "client_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "custom_group" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "labels" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "custom_group_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "custom_group_assignment" (
    "group_id" INTEGER NOT NULL,
    "holding_id" INTEGER NOT NULL,
    "label" VARCHAR(200) NOT NULL,

    CONSTRAINT "custom_group_assignment_pkey" PRIMARY KEY ("group_id","holding_id")
);

-- CreateTable
CREATE TABLE "tax_year_method" (
    "portfolio_id" INTEGER NOT NULL,
    "financial_year" INTEGER NOT NULL,
    "method" "ParcelMethod" NOT NULL,

    CONSTRAINT "tax_year_method_pkey" PRIMARY KEY ("portfolio_id","financial_year")
);

-- CreateTable
CREATE TABLE "holding_tax_method" (
    "portfolio_id" INTEGER NOT NULL,
    "holding_id" INTEGER NOT NULL,
    "financial_year" INTEGER NOT NULL,
    "method" "ParcelMethod" NOT NULL,

    CONSTRAINT "holding_tax_method_pkey" PRIMARY KEY ("holding_id","financial_year")
);

-- CreateTable
CREATE TABLE "carried_forward_loss" (
    "portfolio_id" INTEGER NOT NULL,
    "financial_year" INTEGER NOT NULL,
    "amount" DECIMAL(19,4) NOT NULL,

    CONSTRAINT "carried_forward_loss_pkey" PRIMARY KEY ("portfolio_id","financial_year")
);

-- CreateIndex
CREATE INDEX "security_symbol_idx" ON "security"("symbol");

-- CreateIndex
CREATE UNIQUE INDEX "security_master_symbol_exchange" ON "security"("symbol", "exchange") WHERE (account_id IS NULL);

-- CreateIndex
CREATE UNIQUE INDEX "security_account_symbol_exchange" ON "security"("account_id", "symbol", "exchange") WHERE (account_id IS NOT NULL);

-- CreateIndex
CREATE UNIQUE INDEX "holding_portfolio_id_symbol_exchange_key" ON "holding"("portfolio_id", "symbol", "exchange");

-- CreateIndex
CREATE INDEX "holding_symbol_change_holding_id_idx" ON "holding_symbol_change"("holding_id");

-- CreateIndex
CREATE INDEX "trade_holding_id_trade_date_id_idx" ON "trade"("holding_id", "trade_date", "id");

-- CreateIndex
CREATE INDEX "trade_portfolio_id_trade_date_idx" ON "trade"("portfolio_id", "trade_date");

-- CreateIndex
CREATE INDEX "trade_parcel_parcel_trade_id_idx" ON "trade_parcel"("parcel_trade_id");

-- CreateIndex
CREATE INDEX "income_holding_id_paid_date_idx" ON "income"("holding_id", "paid_date");

-- CreateIndex
CREATE INDEX "income_portfolio_id_paid_date_idx" ON "income"("portfolio_id", "paid_date");

-- CreateIndex
CREATE INDEX "cash_account_portfolio_id_idx" ON "cash_account"("portfolio_id");

-- CreateIndex
CREATE INDEX "cash_transaction_cash_account_id_date_idx" ON "cash_transaction"("cash_account_id", "date");

-- CreateIndex
CREATE UNIQUE INDEX "custom_price_holding_id_date_key" ON "custom_price"("holding_id", "date");

-- CreateIndex
CREATE INDEX "client_account_id_idx" ON "client"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "custom_group_account_id_name_key" ON "custom_group"("account_id", "name");

-- CreateIndex
CREATE INDEX "custom_group_assignment_holding_id_idx" ON "custom_group_assignment"("holding_id");

-- CreateIndex
CREATE INDEX "holding_tax_method_portfolio_id_idx" ON "holding_tax_method"("portfolio_id");

-- CreateIndex
CREATE INDEX "api_key_client_id_idx" ON "api_key"("client_id");

-- CreateIndex
CREATE INDEX "portfolio_client_id_idx" ON "portfolio"("client_id");

-- AddForeignKey
ALTER TABLE "api_key" ADD CONSTRAINT "api_key_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "client"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "portfolio" ADD CONSTRAINT "portfolio_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "client"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "security" ADD CONSTRAINT "security_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "holding" ADD CONSTRAINT "holding_portfolio_id_fkey" FOREIGN KEY ("portfolio_id") REFERENCES "portfolio"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "holding_symbol_change" ADD CONSTRAINT "holding_symbol_change_holding_id_fkey" FOREIGN KEY ("holding_id") REFERENCES "holding"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trade" ADD CONSTRAINT "trade_holding_id_fkey" FOREIGN KEY ("holding_id") REFERENCES "holding"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trade" ADD CONSTRAINT "trade_source_id_fkey" FOREIGN KEY ("source_id") REFERENCES "source"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trade_parcel" ADD CONSTRAINT "trade_parcel_sell_trade_id_fkey" FOREIGN KEY ("sell_trade_id") REFERENCES "trade"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trade_parcel" ADD CONSTRAINT "trade_parcel_parcel_trade_id_fkey" FOREIGN KEY ("parcel_trade_id") REFERENCES "trade"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trade_attachment" ADD CONSTRAINT "trade_attachment_trade_id_fkey" FOREIGN KEY ("trade_id") REFERENCES "trade"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "income" ADD CONSTRAINT "income_holding_id_fkey" FOREIGN KEY ("holding_id") REFERENCES "holding"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "cash_account" ADD CONSTRAINT "cash_account_portfolio_id_fkey" FOREIGN KEY ("portfolio_id") REFERENCES "portfolio"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "cash_transaction" ADD CONSTRAINT "cash_transaction_cash_account_id_fkey" FOREIGN KEY ("cash_account_id") REFERENCES "cash_account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "custom_price" ADD CONSTRAINT "custom_price_holding_id_fkey" FOREIGN KEY ("holding_id") REFERENCES "holding"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "market_price" ADD CONSTRAINT "market_price_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "fx_rate" ADD CONSTRAINT "fx_rate_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "client" ADD CONSTRAINT "client_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "custom_group" ADD CONSTRAINT "custom_group_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "custom_group_assignment" ADD CONSTRAINT "custom_group_assignment_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "custom_group"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "custom_group_assignment" ADD CONSTRAINT "custom_group_assignment_holding_id_fkey" FOREIGN KEY ("holding_id") REFERENCES "holding"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tax_year_method" ADD CONSTRAINT "tax_year_method_portfolio_id_fkey" FOREIGN KEY ("portfolio_id") REFERENCES "portfolio"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "holding_tax_method" ADD CONSTRAINT "holding_tax_method_portfolio_id_fkey" FOREIGN KEY ("portfolio_id") REFERENCES "portfolio"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "holding_tax_method" ADD CONSTRAINT "holding_tax_method_holding_id_fkey" FOREIGN KEY ("holding_id") REFERENCES "holding"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "carried_forward_loss" ADD CONSTRAINT "carried_forward_loss_portfolio_id_fkey" FOREIGN KEY ("portfolio_id") REFERENCES "portfolio"("id") ON DELETE CASCADE ON UPDATE CASCADE;
