import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { PrismaClient } from "../db";
import { DomainError } from "../lib/domain-errors";
import { assertShallowInput } from "./depth";
import {
  claimKey,
  completeKey,
  purgeExpiredKeys,
  releaseKey,
  type KeyScope,
  type StoredAnswer,
} from "../modules/idempotency/idempotency.store";
import { graphqlMutationFields, parseIdempotencyKey, requestFingerprint } from "./idempotency-key";

/**
 * `Idempotency-Key` on POST (docs/conventions.md §7.2; IETF draft "The Idempotency-Key HTTP Header
 * Field"). The first request with a key runs and its answer is kept for 24 h; a retry with the
 * same key and the same request gets that answer again, byte for byte, with
 * `Idempotent-Replayed: true`, and writes nothing. Keys live in the database, so every API
 * process in front of it agrees (src/modules/idempotency/idempotency.store.ts).
 *
 * - Namespace: the account's own keys share one (docs/conventions.md §7.2); a client login key has
 *   its client's own, so it can never be handed an answer an adviser's key received.
 * - Kept: every answer below 500 except 409 and 429, which say "try again": a rejected request
 *   wrote nothing, so running its retry is safe, and a retry of a 400/403/404/422 gets the same
 *   rejection (the draft's choice). A 5xx, 409 or 429 gives the key up, as does a GraphQL answer
 *   carrying one of those codes.
 * - A process that dies mid-request leaves its key in progress; after ABANDONED_AFTER_MS a retry
 *   takes it over and runs. The write and the kept answer are not one transaction: a crash
 *   between them can run a retry twice; nothing short of storing the answer inside each service's
 *   transaction closes that gap.
 * - GraphQL: only a mutation uses the key; a query runs afresh every time.
 * - Every request, with a key or without, is first held to MAX_INPUT_DEPTH (src/http/depth.ts):
 *   this is the first middleware after the body parsers on both transports, and the fingerprint
 *   below is the first walk over the body.
 */

/** Headers that are part of the answer (not of this delivery: request id, rate limits, dates). */
const REPLAYED_HEADERS = [
  "content-type",
  "content-disposition",
  "content-language",
  "location",
  "link",
  "x-total-count",
  "cache-control",
];

/**
 * Operations whose success answer carries a secret (a new API key) are never stored in the clear:
 * REST routes say so with `secretAnswer` (src/http/endpoint.ts sets `res.locals.secretAnswer`),
 * GraphQL mutations are named here.
 */
const SECRET_MUTATIONS = new Set(["createClientApiKey", "createApiKey", "rotateApiKey"]);

/** GraphQL answers 200 with these codes where REST answers 5xx, 409 or 429. */
const RETRYABLE_GRAPHQL_CODES = new Set([
  "INTERNAL",
  "UNAVAILABLE",
  "INSUFFICIENT_STORAGE",
  "CONFLICT",
  "RATE_LIMITED",
  "CLIENT_CLOSED",
]);

/** Expired keys are purged by whichever process next stores a key, at most this often. */
const PURGE_EVERY_MS = 60_000;

const HEADER = "Idempotency-Key";

/** One per transport: the mount says which, never the URL (Express matches paths in any case). */
export function idempotency(db: PrismaClient, transport: "rest" | "graphql"): RequestHandler {
  const isGraphql = transport === "graphql";
  let lastPurge = 0;
  const purgeDue = () => {
    const now = Date.now();
    if (now - lastPurge < PURGE_EVERY_MS) return false;
    lastPurge = now;
    return true;
  };

  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      assertShallowInput(req, transport);
      const header = req.headers["idempotency-key"];
      // Without a valid API key authentication answers as usual; the key has no namespace yet.
      if (req.method !== "POST" || header === undefined || !req.auth) return next();
      const key = parseIdempotencyKey(Array.isArray(header) ? header.join(", ") : header);
      if (key === null) {
        throw new DomainError(
          "VALIDATION_FAILED",
          `The ${HEADER} header must be 1 to 255 printable ASCII characters, bare or as a quoted string.`,
          [{ path: HEADER, message: "must be 1 to 255 printable ASCII characters" }],
        );
      }
      const mutationFields = isGraphql ? graphqlMutationFields(req.body) : null;
      if (isGraphql && mutationFields === null) return next();

      const scope: KeyScope = { accountId: req.auth.account.id, clientId: req.auth.client?.id ?? null };
      // /api/v1 is an alias of /v1: one operation, one fingerprint.
      const path = req.originalUrl.replace(/^\/api\/v1(?=[/?]|$)/, "/v1");
      const fingerprint = requestFingerprint({
        method: req.method,
        path,
        contentType: req.headers["content-type"],
        body: req.body,
      });
      const claim = await claimKey(db, scope, key, { method: req.method, path, fingerprint });

      if (claim.kind === "mismatch") {
        // The draft's 422, with a code of its own.
        throw new DomainError(
          "IDEMPOTENCY_KEY_REUSED",
          `The ${HEADER} "${key}" was used in the last 24 hours for a different request (${claim.method} ${claim.path}); use a new key for a new request.`,
          [{ path: HEADER, message: "was used for a different request" }],
        );
      }
      if (claim.kind === "in-progress") {
        throw new DomainError(
          "CONFLICT",
          `A request with the ${HEADER} "${key}" is still being processed; retry after it has answered.`,
          undefined,
          { "Retry-After": "1" },
        );
      }
      if (claim.kind === "done") {
        if (claim.answer.body === null) {
          throw new DomainError(
            "CONFLICT",
            `The request with the ${HEADER} "${key}" was already done (status ${claim.answer.status}); its answer held a new API key, which is never stored, so it cannot be sent again.`,
          );
        }
        res.status(claim.answer.status);
        for (const [name, value] of Object.entries(claim.answer.headers)) res.setHeader(name, value);
        res.setHeader("Idempotent-Replayed", "true");
        return void res.end(Buffer.from(claim.answer.body));
      }

      captureAnswer(res, async (answer) => {
        const secret = isGraphql
          ? mutationFields!.some((f) => SECRET_MUTATIONS.has(f))
          : res.locals.secretAnswer === true;
        try {
          if (keepsAnswer(answer, isGraphql)) {
            await completeKey(
              db,
              scope,
              key,
              claim.attempt,
              secret && answer.status < 300 ? { ...answer, body: null } : answer,
            );
          } else {
            await releaseKey(db, scope, key, claim.attempt);
          }
        } catch (error) {
          // The answer still goes out. The key stays in progress (409 to retries) until abandoned.
          req.log?.error({ err: error }, "storing the idempotency key's answer failed");
        }
        // Awaited, so no statement of this request outlives its answer (tests count statements).
        if (purgeDue())
          await purgeExpiredKeys(db).catch((error) =>
            req.log?.warn({ err: error }, "purging expired idempotency keys failed"),
          );
      });
      next();
    } catch (error) {
      next(error);
    }
  };
}

function keepsAnswer(answer: StoredAnswer, isGraphql: boolean): boolean {
  // 499: the client hung up and its work was stopped; its retry with the same key must run it.
  if (answer.status >= 500 || answer.status === 409 || answer.status === 429 || answer.status === 499) return false;
  if (!isGraphql || answer.body === null) return true;
  try {
    const { errors } = JSON.parse(Buffer.from(answer.body).toString("utf8")) as {
      errors?: { extensions?: { code?: unknown } }[];
    };
    return !(errors ?? []).some((e) => RETRYABLE_GRAPHQL_CODES.has(String(e.extensions?.code)));
  } catch {
    return true;
  }
}

/**
 * Collects the answer's bytes as they are written and, on `end`, hands status, headers and body
 * to `settle` before the last bytes go out: once a client has the answer, its retry finds the key
 * done, never still in progress.
 */
function captureAnswer(res: Response, settle: (answer: StoredAnswer) => Promise<void>): void {
  const chunks: Buffer[] = [];
  const collect = (chunk: unknown, encoding: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === "function") return;
    chunks.push(
      typeof chunk === "string"
        ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
        : Buffer.from(chunk as Uint8Array),
    );
  };
  const write = res.write;
  const end = res.end;
  res.write = function (this: Response, chunk: unknown, ...rest: unknown[]) {
    collect(chunk, rest[0]);
    return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
  } as Response["write"];
  res.end = function (this: Response, ...args: unknown[]) {
    res.write = write;
    res.end = end;
    collect(args[0], args[1]);
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = res.getHeader(name);
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : String(value);
    }
    const send = () => {
      try {
        (end as (...a: unknown[]) => Response).apply(res, args);
      } catch {
        // The connection is gone; there is no one left to answer.
      }
    };
    // settle() catches its own errors; the answer goes out whatever happened to the key.
    settle({ status: res.statusCode, headers, body: Buffer.concat(chunks) }).then(send, send);
    return res;
  } as Response["end"];
}
