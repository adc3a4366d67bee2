/**
 * The line on which the quoted cell that never closes opens (RFC 4180: a quote at a cell's start
 * opens it, `""` inside is a quote, a quote then a comma or a line break closes it), or undefined
 * when every quoted cell closes. Read only for that error, once.
 */
export function unclosedQuoteLine(text: string): number | undefined {
  let line = 1;
  let opened: number | undefined;
  let cellStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\n") line++;
    if (opened !== undefined) {
      if (c !== '"') continue;
      if (text[i + 1] === '"') i++;
      else {
        opened = undefined;
        cellStart = false;
      }
    } else if (c === "\n" || c === ",") cellStart = true;
    else if (c === '"' && cellStart) opened = line;
    else if (c !== " " && c !== "\t" && c !== "\r") cellStart = false;
  }
  return opened;
}
