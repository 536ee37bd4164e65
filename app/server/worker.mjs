// One server process, started by the supervisor in app/server/start.mjs (node:cluster worker).
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
process.env.NODE_ENV = "production";
const { startServer } = await import(path.join(root, "build/server/index.js"));
await startServer();
