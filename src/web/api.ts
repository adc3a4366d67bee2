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

/** A GraphQL error answer: each error's message, with the rows an import refused. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly details: string[] = [],
  ) {
    super(message);
  }
}

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
    throw new ApiError(first.message, details);
  }
  if (!body.data) throw new ApiError(`The server answered ${res.status} without data.`);
  return body.data;
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
  const disposition = res.headers.get("content-disposition") ?? "";
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `mytax-FY${financialYear}.pdf`;
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
