-- CreateTable
CREATE TABLE "idempotency_key" (
    "id" BIGSERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "client_id" INTEGER,
    "key" VARCHAR(255) NOT NULL,
    "method" VARCHAR(10) NOT NULL,
    "path" TEXT NOT NULL,
    "fingerprint" CHAR(64) NOT NULL,
    "attempt" UUID NOT NULL,
    "status" INTEGER,
    "headers" JSONB,
    "body" BYTEA,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "idempotency_key_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "idempotency_key_created_at_idx" ON "idempotency_key"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "idempotency_key_account_key" ON "idempotency_key"("account_id", "key") WHERE (client_id IS NULL);

-- CreateIndex
CREATE UNIQUE INDEX "idempotency_key_client_key" ON "idempotency_key"("client_id", "key") WHERE (client_id IS NOT NULL);
