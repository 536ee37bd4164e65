import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // React Router v8's changes, each chosen explicitly, so the build prints no future-flag
  // warnings. Off: the behaviour this site is built and tested on. On: passThroughRequests, so a
  // loader or action gets the request as it came (no two copies of it per call, each tied to its
  // abort signal: about 0.13 ms and much of the garbage of every request) and reads the address
  // from its `url` argument, never from `request.url` (which keeps `.data`, `?index`, `_routes`).
  future: {
    v8_middleware: false,
    v8_splitRouteModules: false,
    v8_viteEnvironmentApi: false,
    v8_passThroughRequests: true,
    v8_trailingSlashAwareDataRequests: false,
  },
} satisfies Config;
