/**
 * The cash module's use cases, each in the file of its concern: accounts (cash-accounts), their
 * ledgers and balances (cash-movements), hand-entered transactions (cash-transactions).
 */
export * from "./cash-accounts.service";
export * from "./cash-movements.service";
export * from "./cash-transactions.service";
export type { CashAccountView, CashMovementSource, CashMovementView, CashTransactionView } from "./cash.views";
