/**
 * How much one statement of a ledger or range load reads at most. On the embedded database a
 * statement runs in the service's thread: ten years of fifty securities' prices in one statement
 * held the event loop for 80 ms, 20,000 trades for 40 ms, while a health check waited. Larger
 * reads go in several statements, with the event loop free between them; a ledger or range
 * under these sizes still costs one statement. Tests lower them to see the pages join up.
 */
export const READ_LIMITS = {
  /** Trades per statement of a ledger load (pages in ledger order). */
  tradesPerStatement: 5_000,
  /** Market prices per statement of a range load (securities in groups of about this many prices). */
  priceRowsPerStatement: 25_000,
};
