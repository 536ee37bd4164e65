import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // React Router v8's changes, each chosen explicitly (off: the behaviour this site is built and
  // tested on), so the build prints no future-flag warnings.
  future: {
    v8_middleware: false,
    v8_splitRouteModules: false,
    v8_viteEnvironmentApi: false,
    v8_passThroughRequests: false,
    v8_trailingSlashAwareDataRequests: false,
  },
} satisfies Config;
