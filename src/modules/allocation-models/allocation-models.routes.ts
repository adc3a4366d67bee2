import { z } from "zod";
import { WithStatus, type Endpoint } from "../../http/endpoint";
import { routeTable } from "../../http/route-table";
import { AllocationModelResponse, SaveAllocationModelBody } from "./allocation-models.schemas";
import {
  activateAllocationModel,
  deleteAllocationModel,
  getActiveAllocationModel,
  getAllocationModel,
  listAllocationModels,
  saveAllocationModel,
} from "./allocation-models.service";

const route = routeTable({ tag: "AllocationModels" });

export const allocationModelRoutes: Endpoint[] = [
  route.get(
    "/portfolios/:portfolioId/allocation-models",
    listAllocationModels,
    "List the allocation models of a portfolio",
    {
      description: "Every model that is not soft-deleted, each with its buckets ordered by sortOrder (seed 4.2).",
      response: z.array(AllocationModelResponse),
    },
  ),
  route.create(
    "/portfolios/:portfolioId/allocation-models",
    saveAllocationModel,
    "Create or update an allocation model",
    {
      description:
        "An absent or empty publicId inserts a model (201); a present one updates that model (200), or answers 404 when the portfolio has no such model. Buckets are replaced as a whole. A `customGroup:{id}` dimension must name one of the account's custom groups (404 otherwise).",
      body: SaveAllocationModelBody,
      response: AllocationModelResponse,
      location: (c) => `/allocation-models/${encodeURIComponent(String(c.publicId))}`,
      handler: async (ctx, req) => {
        const { model, created } = await saveAllocationModel(ctx, req.params.portfolioId, req.body);
        return new WithStatus(created ? 201 : 200, model);
      },
    },
  ),
  route.get(
    "/portfolios/:portfolioId/allocation-models/active",
    getActiveAllocationModel,
    "Get the active allocation model of a portfolio",
    {
      description: "The active model, or JSON null (200) when the portfolio has none.",
      response: AllocationModelResponse.nullable(),
    },
  ),
  route.get("/allocation-models/:publicId", getAllocationModel, "Get an allocation model", {
    stringParams: ["publicId"],
    response: AllocationModelResponse,
  }),
  route.delete("/allocation-models/:publicId", deleteAllocationModel, "Soft-delete an allocation model", {
    description: "The model leaves every read and is no longer active.",
    stringParams: ["publicId"],
  }),
  route.post(
    "/allocation-models/:publicId/activate",
    activateAllocationModel,
    "Make an allocation model the active one",
    {
      description:
        "Sets the model active and clears the flag on every other model of its portfolio, in one transaction. A model along a custom group that no longer exists answers 404.",
      stringParams: ["publicId"],
      response: AllocationModelResponse,
    },
  ),
];
