/**
 * What the graphql-parity.*.test.ts stories share: the executable schema, and a call's answer over
 * each transport in one shape (its data, or the error's code and field errors). Importing it
 * registers no hook: a suite hands its app over, `parityTransports(t, () => key)`.
 */
import { type GraphQLSchema } from "graphql";
import type { Response } from "supertest";
import { buildSchema } from "../../src/graphql/schema";
import type { TestApp } from "../support/app";

export const schema: GraphQLSchema = buildSchema();

export type Json = Record<string, unknown>;

/** A REST answer in the same terms. */
export const rest = (res: Response): { data?: unknown; code?: string; errors?: unknown } =>
  res.status < 300 ? { data: res.body } : { code: res.body.code, errors: res.body.errors };

/** The GraphQL call over the suite's app (inside tests only). */
export function parityTransports(t: TestApp, key: () => string) {
  /** A GraphQL answer: its data field, or the first error's code and field errors. */
  async function gql(
    query: string,
    variables: Json,
    field: string,
  ): Promise<{ data?: unknown; code?: string; errors?: unknown }> {
    const res = await t.gql(key(), query, variables);
    const errors = res.body.errors as { extensions?: { code?: string; errors?: unknown } }[] | undefined;
    if (errors?.length) return { code: errors[0].extensions?.code, errors: errors[0].extensions?.errors };
    expect(res.status).toBe(200);
    return { data: res.body.data[field] };
  }
  return { gql };
}
