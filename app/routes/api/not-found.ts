import { jsonApi } from "~/lib/http/api.server";
import { jsonError } from "~/lib/http/http.server";

const notFound = async () => jsonError(404, "No such API endpoint.");
const api = jsonApi({ GET: notFound, POST: notFound, PUT: notFound, PATCH: notFound, DELETE: notFound });
export const loader = api.loader;
export const action = api.action;
