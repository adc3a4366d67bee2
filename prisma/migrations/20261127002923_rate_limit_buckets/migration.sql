-- The rate limit's token buckets on PostgreSQL, one per key (or client address) for every API
-- process of the installation (src/http/rate-limit-store.ts). Unlogged: a bucket is a few seconds
-- of state, not worth a WAL record and a flush on every request; after a crash the server empties
-- the table, which only refills every bucket. Replicas do not carry it; only the primary draws.

-- CreateTable
CREATE UNLOGGED TABLE "rate_limit_bucket" (
    "id" TEXT NOT NULL,
    "tokens" DOUBLE PRECISION NOT NULL,
    "at" TIMESTAMPTZ(6) NOT NULL,
    "enough" BOOLEAN NOT NULL,

    CONSTRAINT "rate_limit_bucket_pkey" PRIMARY KEY ("id")
);
