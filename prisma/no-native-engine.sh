#!/bin/sh
# Stands in for Prisma's native schema engine, which this network cannot download (see
# prisma.config.ts). `prisma generate` only checks that an engine file exists; any command that
# would really run one lands here instead.
echo "The native Prisma schema engine is not installed here. Create migrations with" >&2
echo "'npm run db:migrate -- --name <name>' and check them with 'npm run db:check';" >&2
echo "the service applies pending migrations itself when it starts." >&2
exit 1
