-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "EntityType" AS ENUM ('Individual', 'Trust', 'SMSF', 'Company');

-- CreateTable
CREATE TABLE "account" (
    "id" SERIAL NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_key" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "key_hash" CHAR(64) NOT NULL,
    "label" VARCHAR(200),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_key_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "source" (
    "id" UUID NOT NULL,
    "name" VARCHAR(100) NOT NULL,

    CONSTRAINT "source_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "portfolio" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "base_currency_code" CHAR(3) NOT NULL,
    "tax_residency" CHAR(2) NOT NULL,
    "entity_type" "EntityType" NOT NULL DEFAULT 'Individual',
    "financial_year_end" CHAR(5) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "portfolio_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "allocation_model" (
    "id" SERIAL NOT NULL,
    "public_id" VARCHAR(36) NOT NULL,
    "portfolio_id" INTEGER NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "notes" TEXT NOT NULL DEFAULT '',
    "dimension" VARCHAR(100) NOT NULL,
    "is_active" BOOLEAN NOT NULL DEFAULT false,
    "deleted_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "allocation_model_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "allocation_bucket" (
    "id" SERIAL NOT NULL,
    "model_id" INTEGER NOT NULL,
    "label" VARCHAR(200) NOT NULL,
    "target_pct" DECIMAL(7,4) NOT NULL,
    "tolerance_pct" DECIMAL(7,4) NOT NULL,
    "sort_order" INTEGER NOT NULL,

    CONSTRAINT "allocation_bucket_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "account_name_key" ON "account"("name");

-- CreateIndex
CREATE UNIQUE INDEX "api_key_key_hash_key" ON "api_key"("key_hash");

-- CreateIndex
CREATE INDEX "api_key_account_id_idx" ON "api_key"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "source_name_key" ON "source"("name");

-- CreateIndex
CREATE INDEX "portfolio_account_id_id_idx" ON "portfolio"("account_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "allocation_model_public_id_key" ON "allocation_model"("public_id");

-- CreateIndex
CREATE INDEX "allocation_model_portfolio_id_deleted_at_idx" ON "allocation_model"("portfolio_id", "deleted_at");

-- CreateIndex
CREATE UNIQUE INDEX "allocation_model_one_active_per_portfolio" ON "allocation_model"("portfolio_id") WHERE ("is_active" = true);

-- CreateIndex
CREATE UNIQUE INDEX "allocation_bucket_model_id_label_key" ON "allocation_bucket"("model_id", "label");

-- AddForeignKey
ALTER TABLE "api_key" ADD CONSTRAINT "api_key_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "portfolio" ADD CONSTRAINT "portfolio_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "allocation_model" ADD CONSTRAINT "allocation_model_portfolio_id_fkey" FOREIGN KEY ("portfolio_id") REFERENCES "portfolio"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "allocation_bucket" ADD CONSTRAINT "allocation_bucket_model_id_fkey" FOREIGN KEY ("model_id") REFERENCES "allocation_model"("id") ON DELETE CASCADE ON UPDATE CASCADE;
