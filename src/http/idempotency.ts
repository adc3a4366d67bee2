import type { RequestHandler } from "express";
import type { PrismaClient } from "../db";

/** `Idempotency-Key` on POST (API.md §1 writes). Placeholder: passes every request through. */
export function idempotency(_db: PrismaClient): RequestHandler {
  return (_req, _res, next) => next();
}
