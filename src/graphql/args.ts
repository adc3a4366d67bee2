/**
 * GraphQL lets a client send an optional argument or input field as an explicit null, which
 * means "not given" there; the services' schemas read absent and null differently for some
 * fields (null clears a note). Where null can only mean "not given", adapters drop it here.
 */
export function dropNulls<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null)) as never;
}
