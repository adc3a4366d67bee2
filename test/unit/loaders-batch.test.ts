import { listLoader } from "../../src/graphql/loaders";

/**
 * A relation field over many parents reaches its service in batches of at most 10,000 ids: the
 * service reads them with one bind parameter each, and PostgreSQL takes 32,767 a statement.
 */
it("25,000 parents of one tick make three batches, each answered in full", async () => {
  const batches: number[] = [];
  const loader = listLoader<number>(async (ids) => {
    batches.push(ids.length);
    return new Map(ids.map((id) => [id, [id * 2]]));
  });
  const ids = Array.from({ length: 25_000 }, (_, i) => i + 1);
  const answers = await Promise.all(ids.map((id) => loader.load(id)));
  expect(batches).toEqual([10_000, 10_000, 5_000]);
  expect(answers[24_999]).toEqual([50_000]);
});
