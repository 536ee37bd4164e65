import { jsonApi } from "~/lib/http/api.server";
import { subscribeJson } from "./subscribe-json.server";

const api = jsonApi({ POST: subscribeJson });
export const loader = api.loader;
export const action = api.action;
