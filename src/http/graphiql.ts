import express from "express";

/** The offline GraphQL IDE at /graphiql. Placeholder: answers nothing yet. */
export function graphiqlRouter(): express.Router {
  return express.Router();
}
