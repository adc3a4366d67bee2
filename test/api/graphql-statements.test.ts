import { useTestApp } from "../support/app";

/**
 * No N+1: a nested GraphQL query costs a fixed number of SQL statements whatever the number of
 * portfolios, models and buckets, because relation fields go through per-request DataLoaders.
 */
const t = useTestApp();

async function seed(key: string, portfolios: number, models: number, buckets: number): Promise<void> {
  for (let p = 0; p < portfolios; p++) {
    const res = await t.http
      .post("/v1/portfolios")
      .set("authorization", key)
      .send({ name: `P${p}` });
    for (let m = 0; m < models; m++) {
      const share = (100 / buckets).toFixed(4);
      const last = (100 - Number(share) * (buckets - 1)).toFixed(4);
      await t.http
        .post(`/v1/portfolios/${res.body.id}/allocation-models`)
        .set("authorization", key)
        .send({
          name: `M${m}`,
          dimension: "sector",
          isActive: m === 0,
          buckets: Array.from({ length: buckets }, (_, b) => ({
            label: `S${b}`,
            targetPct: b === buckets - 1 ? last : share,
            sortOrder: buckets - b,
          })),
        })
        .expect(201);
    }
  }
}

const QUERY = `{
  portfolios {
    id name
    allocationModels { publicId name isActive buckets { label targetPct tolerancePct sortOrder } }
    activeAllocationModel { publicId buckets { label } }
  }
}`;

async function statementsFor(key: string) {
  const before = t.db.statementCount;
  const res = await t.gql(key, QUERY);
  expect(res.body.errors).toBeUndefined();
  return { count: t.db.statementCount - before, data: res.body.data };
}

it("10 portfolios × 5 models × 10 buckets cost the same few statements as 1 × 1 × 1", async () => {
  const small = await t.newAccount("small");
  const large = await t.newAccount("large");
  await seed(small, 1, 1, 1);
  await seed(large, 10, 5, 10);

  const one = await statementsFor(small);
  const many = await statementsFor(large);

  expect(many.data.portfolios).toHaveLength(10);
  for (const p of many.data.portfolios) {
    expect(p.allocationModels).toHaveLength(5);
    for (const m of p.allocationModels) expect(m.buckets).toHaveLength(10);
    expect(p.activeAllocationModel.publicId).toBe(p.allocationModels[0].publicId);
  }
  // portfolios + models with their buckets (one batch for both relation fields, the buckets
  // aggregated in the models' statement; the key's lookup is cached: both keys were used before)
  expect(many.count).toBe(2);
  expect(one.count).toBe(many.count);
});

it("a query that does not ask for relations does not load them", async () => {
  const key = await t.newAccount();
  await seed(key, 3, 2, 2);
  const before = t.db.statementCount;
  await t.gql(key, "{ portfolios { id name } }").expect(200);
  expect(t.db.statementCount - before).toBe(1); // portfolios (the key's lookup is cached)
});
