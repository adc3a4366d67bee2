import type { NextFunction, Request, Response } from "express";
import { storageFull } from "../lib/db-outage";
import type { DiskSpace } from "../lib/storage";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

export const lowDisk = () => storageFull("The server is low on storage space");

/**
 * REST writes (every method but GET, HEAD and OPTIONS) answer 507 while free space for the
 * embedded database is below its floor (src/lib/storage.ts); reads go on. Refused before the body
 * is read or the key looked up, so nothing is written. GraphQL mutations: src/graphql/low-disk-mutations.ts.
 */
export function refuseWritesOnLowDisk(disk: () => DiskSpace) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (READS.has(req.method) || !disk().low) return next();
    next(lowDisk());
  };
}
