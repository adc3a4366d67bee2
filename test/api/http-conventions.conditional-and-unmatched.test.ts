import { useTestApp } from "../support/app";

/**
 * What the one-match REST dispatch (src/http/rest-routes.ts) and the direct JSON writer keep as
 * Express's router and res.send had them: a conditional GET is answered as res.send answers it,
 * and a path no endpoint answers still passes the Idempotency-Key checks before its 404.
 */
const t = useTestApp({ reset: "none" });
let key: string;
beforeAll(async () => {
  key = await t.newAccount();
});

it("answers `If-None-Match: *` on a GET with 304 and no body, and an unconditional GET with 200", async () => {
  const fresh = await t.http.get("/v1/sources").set("authorization", key).set("if-none-match", "*");
  expect(fresh.status).toBe(304);
  expect(fresh.text ?? "").toBe("");
  const plain = await t.http.get("/v1/sources").set("authorization", key);
  expect(plain.status).toBe(200);
  expect(plain.headers["content-type"]).toBe("application/json; charset=utf-8");
  expect(Number(plain.headers["content-length"])).toBe(Buffer.byteLength(plain.text));
  // A HEAD states the length of the GET's body and sends none.
  const head = await t.http.head("/v1/sources").set("authorization", key);
  expect(head.status).toBe(200);
  expect(head.headers["content-length"]).toBe(plain.headers["content-length"]);
});

it("checks an Idempotency-Key on a path no endpoint answers, and replays its 404", async () => {
  const unknownPath = (idempotencyKey: string) =>
    t.http.post("/v1/no-such-thing").set("authorization", key).set("idempotency-key", idempotencyKey).send({});
  const bad = await unknownPath("k".repeat(256));
  expect(bad.status).toBe(400);
  expect(bad.body.code).toBe("VALIDATION_FAILED");
  const first = await unknownPath("k-404");
  expect(first.status).toBe(404);
  const again = await unknownPath("k-404");
  expect(again.status).toBe(404);
  expect(again.headers["idempotent-replayed"]).toBe("true");
});
