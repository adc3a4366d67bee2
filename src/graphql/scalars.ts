import { GraphQLError, GraphQLScalarType, Kind, valueFromASTUntyped } from "graphql";
import { NonFiniteNumberError } from "../lib/json";
import { Decimal, isDecimal } from "../lib/money";

/**
 * A decimal as Decimal#toFixed writes it: no exponent, no sign on zero, no leading zeros, no
 * trailing zeros after the point. A 10×5×10 nesting of buckets (bench B4) spent a fifth of its
 * time building Decimals from the database's text only to write the same text back.
 */
const AS_WRITTEN = /^(0|-?[1-9]\d*)(\.\d*[1-9])?$|^-0\.\d*[1-9]$/;

/**
 * Decimal travels as a string so no float ever touches an amount (docs/conventions.md §4.2). NaN
 * and ±Infinity are no amount: "NaN" or "Infinity" would reach a client as if they were one, so
 * serialising them throws NonFiniteNumberError, which formatError answers as INTERNAL and logs (as
 * REST does). The scalars' descriptions are schema.graphql's (the one source of the served SDL).
 */
export const DecimalScalar = new GraphQLScalarType({
  name: "Decimal",
  serialize(value) {
    // Text already written as toFixed() would write it (a loader's database text) goes as it is.
    if (typeof value === "string" && AS_WRITTEN.test(value)) return value;
    const d = isDecimal(value)
      ? value
      : typeof value === "number" || typeof value === "string"
        ? new Decimal(value)
        : undefined;
    if (!d) throw new GraphQLError("Decimal cannot represent " + String(value));
    if (!d.isFinite()) throw new NonFiniteNumberError(d.toString());
    return d.toFixed();
  },
  // Parsed values stay as given (string or number); the service's zod schema validates them, so
  // both transports reject a bad amount with the same message.
  parseValue(value) {
    if (typeof value === "string" || typeof value === "number") return value;
    throw new GraphQLError('Decimal must be a string or a number, such as "12.5".');
  },
  parseLiteral(ast) {
    if (ast.kind === Kind.STRING || ast.kind === Kind.FLOAT || ast.kind === Kind.INT) return ast.value;
    throw new GraphQLError('Decimal must be a string or a number literal, such as "12.5".');
  },
});

export const DateTimeScalar = new GraphQLScalarType({
  name: "DateTime",
  serialize(value) {
    if (value instanceof Date) return value.toISOString();
    if (typeof value === "string") return new Date(value).toISOString();
    throw new GraphQLError("DateTime cannot represent " + String(value));
  },
  parseValue(value) {
    if (typeof value !== "string" || Number.isNaN(Date.parse(value)))
      throw new GraphQLError("DateTime must be an ISO 8601 string.");
    return value;
  },
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING || Number.isNaN(Date.parse(ast.value)))
      throw new GraphQLError("DateTime must be an ISO 8601 string.");
    return ast.value;
  },
});

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar date, YYYY-MM-DD (trade, income, price and report dates). */
export const DateScalar = new GraphQLScalarType({
  name: "Date",
  serialize(value) {
    if (value instanceof Date) return value.toISOString().slice(0, 10);
    if (typeof value === "string" && DATE.test(value)) return value;
    throw new GraphQLError("Date cannot represent " + String(value));
  },
  // Kept as given: the service's schema validates it, so both transports answer alike.
  parseValue(value) {
    if (typeof value !== "string") throw new GraphQLError("Date must be a string, YYYY-MM-DD.");
    return value;
  },
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw new GraphQLError("Date must be a string, YYYY-MM-DD.");
    return ast.value;
  },
});

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" &&
  value !== null &&
  !Array.isArray(value) &&
  Object.getPrototypeOf(value) === Object.prototype;

/**
 * An income record's AMIT components as REST carries them: one JSON object, name → amount, so a
 * client sends the same JSON to either transport. Only the shape (an object) is checked here; the
 * names and amounts are the service's zod schema's to judge, so both transports refuse a bad one
 * with the same message and path.
 */
export const IncomeComponentsScalar = new GraphQLScalarType({
  name: "IncomeComponents",
  serialize(value) {
    if (!isPlainObject(value)) throw new GraphQLError("IncomeComponents cannot represent " + String(value));
    return Object.fromEntries(Object.entries(value).map(([name, amount]) => [name, DecimalScalar.serialize(amount)]));
  },
  parseValue(value) {
    if (!isPlainObject(value))
      throw new GraphQLError(
        'IncomeComponents must be an object of name → amount, such as {"discountedCapitalGains": "100"}.',
      );
    return value;
  },
  parseLiteral(ast, variables) {
    if (ast.kind !== Kind.OBJECT)
      throw new GraphQLError(
        'IncomeComponents must be an object of name → amount, such as {discountedCapitalGains: "100"}.',
      );
    return valueFromASTUntyped(ast, variables);
  },
});

/** Amounts by myTax label, the same JSON object REST answers (labels start with a digit). */
export const TaxLabelsScalar = new GraphQLScalarType({
  name: "TaxLabels",
  serialize(value) {
    if (!isPlainObject(value)) throw new GraphQLError("TaxLabels cannot represent " + String(value));
    return Object.fromEntries(Object.entries(value).map(([label, amount]) => [label, DecimalScalar.serialize(amount)]));
  },
  parseValue() {
    throw new GraphQLError("TaxLabels is an output type.");
  },
  parseLiteral() {
    throw new GraphQLError("TaxLabels is an output type.");
  },
});
