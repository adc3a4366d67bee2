/**
 * `Content-Disposition: attachment` for a stored file name in any script (RFC 6266 §4.3 and
 * Appendix D): `filename` holds an ASCII stand-in every client can read (accents dropped, any
 * other character, quote or backslash as `_`) and, when that differs from the name, `filename*`
 * holds the name itself in UTF-8 (RFC 8187), which every current browser prefers. A raw
 * non-Latin-1 name in a header is refused by Node (ERR_INVALID_CHAR, a 500 on every download).
 * Written here rather than with res.attachment(): its `filename` fallback keeps Latin-1 bytes.
 */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]|["\\]/g, "_");
  const plain = `attachment; filename="${ascii}"`;
  return ascii === fileName ? plain : `${plain}; filename*=UTF-8''${rfc8187(fileName)}`;
}

/** RFC 8187 §3.2.1 value-chars: percent-encoded UTF-8 except attr-char (encodeURIComponent also leaves ' ( ) * bare). */
function rfc8187(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
}
