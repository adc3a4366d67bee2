import type { Operation } from "../../generated/graphql/web-operations";

/**
 * The app's one way to the API: POST /graphql with the key the person pasted. The key lives in
 * sessionStorage only (gone with the tab; never in a URL or localStorage, WEB.md); a 401 forgets
 * it and returns to sign-in.
 */

const KEY = "portfolio-service.apiKey";
const REFUSED = "The API key was not accepted. Sign in again.";
const listeners = new Set<() => void>();

export const getKey = (): string | null => sessionStorage.getItem(KEY);

export function signIn(key: string): void {
  sessionStorage.setItem(KEY, key.trim());
  notice = null;
  listeners.forEach((l) => l());
}

let notice: string | null = null;

/** Forgets the key; `reason` is shown on the sign-in form (a 401 says the key was refused). */
export function signOut(reason: string | null = null): void {
  sessionStorage.removeItem(KEY);
  notice = reason;
  listeners.forEach((l) => l());
}

/** Why the app last signed out by itself, or null after a sign-out by request. */
export const signOutNotice = (): string | null => notice;

/** Called on sign-in and sign-out (and on a 401, which signs out). */
export function onKeyChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The API's error codes that asking again can change: the ones whose retry runs again
 * (docs/conventions.md §7.2). Any other code (NOT_FOUND, VALIDATION_FAILED ...) gives
 * the same answer every time.
 */
const TRANSIENT = new Set(["INTERNAL", "UNAVAILABLE", "INSUFFICIENT_STORAGE", "CONFLICT", "RATE_LIMITED"]);

/** A GraphQL error answer: each error's message, with the rows an import refused. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly details: string[] = [],
    /** The API's code (extensions.code); none for an answer without one (a 503 from a proxy). */
    readonly code?: string,
  ) {
    super(message);
  }

  /** Whether asking again may succeed: an answer without a code, or a transient code. */
  get retryable(): boolean {
    return this.code === undefined || TRANSIENT.has(this.code);
  }
}

/** Whether a failure is worth a retry: a dropped connection is, a missing portfolio is not. */
export const retryable = (error: Error): boolean => !(error instanceof ApiError) || error.retryable;

interface GraphQLErrorBody {
  message: string;
  extensions?: { code?: string; errors?: { path?: string; line?: number; message: string }[] };
}

export async function gql<R, V>(op: Operation<R, V>, variables: V): Promise<R> {
  const key = getKey();
  if (!key) throw new ApiError("Not signed in.");
  const res = await fetch("/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: key },
    body: JSON.stringify({ operationName: op.name, query: op.text, variables }),
  });
  if (res.status === 401) {
    signOut(REFUSED);
    throw new ApiError(REFUSED);
  }
  const body = (await res.json()) as { data?: R | null; errors?: GraphQLErrorBody[] };
  if (body.errors?.length) {
    const first = body.errors[0];
    const details = (first.extensions?.errors ?? []).map((e) =>
      [e.line === undefined ? e.path : `line ${e.line}`, e.message].filter(Boolean).join(": "),
    );
    throw new ApiError(first.message, details, first.extensions?.code);
  }
  if (!body.data) throw new ApiError(`The server answered ${res.status} without data.`);
  return body.data;
}

/**
 * The file name a Content-Disposition gives (RFC 6266): `filename*` (RFC 8187, UTF-8) before
 * `filename`, which is a token or a quoted string. Any path in it is dropped.
 */
export function attachmentName(disposition: string | null): string | null {
  if (!disposition) return null;
  const extended = /filename\*\s*=\s*([\w!#$%&+^`{}~-]+)'[\w-]*'([^\s;]+)/i.exec(disposition);
  let name: string | undefined;
  if (extended && /^utf-8$/i.test(extended[1])) {
    try {
      name = decodeURIComponent(extended[2]);
    } catch {
      // A malformed escape: the plain filename below stands.
    }
  }
  if (name === undefined) {
    const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s;"]+))/i.exec(disposition);
    name = plain?.[1]?.replace(/\\(.)/g, "$1") ?? plain?.[2];
  }
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base ? base : null;
}

/**
 * The myTax PDF from its REST path (the one request outside /graphql, WEB.md), saved as a file
 * under the name the server gives it.
 */
export async function downloadMyTaxPdf(portfolioId: string, financialYear: number): Promise<string> {
  const key = getKey();
  if (!key) throw new ApiError("Not signed in.");
  const url = `/v1/portfolios/${encodeURIComponent(portfolioId)}/reports/ato-mytax/pdf?financialYear=${financialYear}`;
  const res = await fetch(url, { headers: { authorization: key, accept: "application/pdf" } });
  if (res.status === 401) {
    signOut(REFUSED);
    throw new ApiError(REFUSED);
  }
  if (!res.ok) {
    const problem = (await res.json().catch(() => null)) as { detail?: string; title?: string } | null;
    throw new ApiError(problem?.detail ?? problem?.title ?? `The PDF could not be made (HTTP ${res.status}).`);
  }
  const name = attachmentName(res.headers.get("content-disposition")) ?? `mytax-FY${financialYear}.pdf`;
  const href = URL.createObjectURL(await res.blob());
  const a = document.createElement("a");
  a.href = href;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return name;
}
