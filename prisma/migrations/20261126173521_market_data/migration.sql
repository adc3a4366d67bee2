-- CreateEnum
CREATE TYPE "MarketDataRunStatus" AS ENUM ('Running', 'Succeeded', 'Partial', 'Failed');

-- CreateTable
CREATE TABLE "provider_price" (
    "symbol" VARCHAR(20) NOT NULL,
    "exchange" VARCHAR(10) NOT NULL,
    "date" DATE NOT NULL,
    "close" DECIMAL(24,8) NOT NULL,
    "currency_code" CHAR(3) NOT NULL,

    CONSTRAINT "provider_price_pkey" PRIMARY KEY ("symbol","exchange","date")
);

-- CreateTable
CREATE TABLE "provider_fx_rate" (
    "base" CHAR(3) NOT NULL,
    "quote" CHAR(3) NOT NULL,
    "date" DATE NOT NULL,
    "rate" DECIMAL(20,10) NOT NULL,
    "provider" VARCHAR(20) NOT NULL,

    CONSTRAINT "provider_fx_rate_pkey" PRIMARY KEY ("base","quote","date")
);

-- CreateTable
CREATE TABLE "provider_dividend" (
    "symbol" VARCHAR(20) NOT NULL,
    "exchange" VARCHAR(10) NOT NULL,
    "ex_date" DATE NOT NULL,
    "amount" DECIMAL(24,8) NOT NULL,
    "currency_code" CHAR(3) NOT NULL,

    CONSTRAINT "provider_dividend_pkey" PRIMARY KEY ("symbol","exchange","ex_date")
);

-- CreateTable
CREATE TABLE "provider_split" (
    "symbol" VARCHAR(20) NOT NULL,
    "exchange" VARCHAR(10) NOT NULL,
    "date" DATE NOT NULL,
    "numerator" INTEGER NOT NULL,
    "denominator" INTEGER NOT NULL,

    CONSTRAINT "provider_split_pkey" PRIMARY KEY ("symbol","exchange","date")
);

-- CreateTable
CREATE TABLE "market_data_run" (
    "id" SERIAL NOT NULL,
    "status" "MarketDataRunStatus" NOT NULL DEFAULT 'Running',
    "trigger" VARCHAR(20) NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    "counts" JSONB NOT NULL DEFAULT '{}',
    "message" TEXT,

    CONSTRAINT "market_data_run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "market_data_security" (
    "symbol" VARCHAR(20) NOT NULL,
    "exchange" VARCHAR(10) NOT NULL,
    "provider_symbol" VARCHAR(40),
    "instrument_type" VARCHAR(40),
    "last_price_date" DATE,
    "last_attempt_at" TIMESTAMPTZ(3),
    "last_success_at" TIMESTAMPTZ(3),
    "last_error" TEXT,

    CONSTRAINT "market_data_security_pkey" PRIMARY KEY ("symbol","exchange")
);

-- CreateIndex
CREATE INDEX "market_data_run_started_at_idx" ON "market_data_run"("started_at");

-- Provider prices and rates are the installation's, read by every account: a write to them bumps
-- the market version of account 0 (no account has that id), which every read of an account's
-- market data reads beside the account's own (ledger/moment.ts), so a cached series computed
-- before a refresh is never served after it.
CREATE FUNCTION provider_market_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM bump_account_market_versions(ARRAY[0]); RETURN NULL; END $$;

CREATE TRIGGER provider_price_version_insert AFTER INSERT ON "provider_price" FOR EACH STATEMENT EXECUTE FUNCTION provider_market_rows_changed();
CREATE TRIGGER provider_price_version_update AFTER UPDATE ON "provider_price" FOR EACH STATEMENT EXECUTE FUNCTION provider_market_rows_changed();
CREATE TRIGGER provider_price_version_delete AFTER DELETE ON "provider_price" FOR EACH STATEMENT EXECUTE FUNCTION provider_market_rows_changed();
CREATE TRIGGER provider_fx_rate_version_insert AFTER INSERT ON "provider_fx_rate" FOR EACH STATEMENT EXECUTE FUNCTION provider_market_rows_changed();
CREATE TRIGGER provider_fx_rate_version_update AFTER UPDATE ON "provider_fx_rate" FOR EACH STATEMENT EXECUTE FUNCTION provider_market_rows_changed();
CREATE TRIGGER provider_fx_rate_version_delete AFTER DELETE ON "provider_fx_rate" FOR EACH STATEMENT EXECUTE FUNCTION provider_market_rows_changed();
