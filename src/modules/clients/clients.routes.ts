import { z } from "zod";
import type { Endpoint } from "../../http/endpoint";
import { routeTable } from "../../http/route-table";
import { PortfolioResponse } from "../portfolios/portfolios.schemas";
import {
  AssignClientPortfoliosInput,
  ClientApiKeyResponse,
  ClientResponse,
  CreateClientInput,
  UpdateClientBody,
} from "./clients.schemas";
import {
  assignClientPortfolios,
  createClient,
  createClientApiKey,
  deleteClient,
  getClient,
  listClientPortfolios,
  listClients,
  revokeClientApiKeys,
  updateClient,
} from "./clients.service";

/** Every client operation is the adviser's: a client login key answers 403. */
const route = routeTable({ tag: "Clients", errors: [403] });

export const clientRoutes: Endpoint[] = [
  route.get("/clients", listClients, "List clients", { response: z.array(ClientResponse) }),
  route.create("/clients", createClient, "Create a client", {
    body: CreateClientInput,
    response: ClientResponse,
  }),
  route.get("/clients/:clientId", getClient, "Get a client", { response: ClientResponse }),
  route.put("/clients/:clientId", updateClient, "Update a client", {
    description: "Fields absent stay as they are; `email: null` removes the address.",
    body: UpdateClientBody,
    response: ClientResponse,
  }),
  route.delete("/clients/:clientId", deleteClient, "Delete a client", {
    description: "Its portfolios stay, unassigned; its login keys are revoked.",
  }),
  route.get("/clients/:clientId/portfolios", listClientPortfolios, "List a client's portfolios", {
    response: z.array(PortfolioResponse),
  }),
  route.put("/clients/:clientId/portfolios", assignClientPortfolios, "Replace a client's portfolios", {
    description:
      "The listed portfolios become the client's (moved from another client if need be); the client's others are unassigned. Every id must be a portfolio of this account (404 otherwise). Answers the client's portfolios.",
    body: AssignClientPortfoliosInput,
    response: z.array(PortfolioResponse),
  }),
  route.post("/clients/:clientId/api-keys", createClientApiKey, "Create a login key for a client", {
    description:
      "The key acts as the client: it sees only the client's portfolios, with the client's permission. It is shown only in this answer.",
    response: ClientApiKeyResponse,
    status: 201,
    secretAnswer: true,
  }),
  route.delete("/clients/:clientId/api-keys", revokeClientApiKeys, "Revoke every login key of a client"),
];
