import { create } from "content-disposition";

/**
 * `Content-Disposition: attachment` for a stored file name in any script (RFC 6266 §4.3 and
 * Appendix D), by the `content-disposition` package: `filename` holds an ASCII stand-in every
 * client can read, and `filename*` the name itself in UTF-8 (RFC 8187) when they differ, which
 * every current browser prefers. A raw non-Latin-1 name in a header is refused by Node
 * (ERR_INVALID_CHAR: a 500 on every download). The stand-in is ours rather than the package's
 * default (each non-ASCII character as `?`): accents are dropped (`é` → `e`), anything else that
 * is not printable ASCII, a quote or a backslash becomes `_`.
 */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]|["\\]/g, "_");
  return create(fileName, { fallback: ascii });
}
