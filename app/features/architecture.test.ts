import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The shape of the code, checked: no import cycle between feature folders or between files,
 * layers that never import the one above them, and view types outside .server modules.
 * An import is any `import`, `import type`, `export … from` or `import(…)` naming a module
 * under app/ (by `~/…` or a relative path); packages are not followed.
 * Run it alone: `npx vitest run app/features/architecture.test.ts`.
 */

const APP = fileURLToPath(new URL("..", import.meta.url));
const FEATURES = path.join(APP, "features");

/** A path under app/, with forward slashes: "features/merch/merch.server.ts". */
export const rel = (file: string) => path.relative(APP, file).split(path.sep).join("/");

/** Every .ts/.tsx file under `dir` (absolute paths), tests included. */
export function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts"))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

const EXTENSIONS = ["", ".ts", ".tsx", "/index.ts", "/index.tsx"];

/** The file an import names, or null when it names a package or React Router's generated route types. */
export function resolveImport(from: string, spec: string): string | null {
  if (spec.includes("/+types/")) return null;
  let base: string;
  if (spec.startsWith("~/")) base = path.join(APP, spec.slice(2));
  else if (spec.startsWith("./") || spec.startsWith("../")) base = path.resolve(path.dirname(from), spec);
  else return null;
  for (const ext of EXTENSIONS) {
    const file = base + ext;
    if (fs.existsSync(file) && fs.statSync(file).isFile()) return file;
  }
  throw new Error(`${rel(from)} imports '${spec}', which names no file`);
}

/** The app files a file imports (value, type and dynamic imports alike), resolved. */
export function importsOf(file: string): string[] {
  const info = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
  const out = new Set<string>();
  for (const ref of info.importedFiles) {
    const target = resolveImport(file, ref.fileName);
    if (target) out.add(target);
  }
  return [...out];
}

/** The app files a file imports at least one type from (`import type`, `{ type X }`, `export type … from`). */
export function typeImportsOf(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  const out = new Set<string>();
  for (const node of source.statements) {
    let spec: ts.Expression | undefined;
    let typed = false;
    if (ts.isImportDeclaration(node)) {
      spec = node.moduleSpecifier;
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : [];
      typed = !!clause && (clause.isTypeOnly || named.some((n) => n.isTypeOnly));
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      spec = node.moduleSpecifier;
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : [];
      typed = node.isTypeOnly || named.some((n) => n.isTypeOnly);
    }
    if (!typed || !spec || !ts.isStringLiteral(spec)) continue;
    const target = resolveImport(file, spec.text);
    if (target) out.add(target);
  }
  return [...out];
}

export type Graph = Map<string, Set<string>>;

/** The file import graph of these files, keyed by `rel` paths; imports leaving the set are kept as edges. */
export function fileGraph(files: string[]): Graph {
  const graph: Graph = new Map();
  for (const f of files) graph.set(rel(f), new Set(importsOf(f).map(rel)));
  return graph;
}

/** The feature folder of an app path ("features/merch/admin/x.ts" -> "merch"), or null outside features/. */
export function featureOf(relPath: string): string | null {
  const parts = relPath.split("/");
  return parts[0] === "features" && parts.length > 2 ? parts[1]! : null;
}

/**
 * The feature-folder graph: folder A -> folder B when a file of A imports a file of B.
 * Each edge keeps one file import that makes it, for the failure message.
 */
export function folderGraph(files: Graph): { graph: Graph; because: Map<string, string> } {
  const graph: Graph = new Map();
  const because = new Map<string, string>();
  for (const [from, targets] of files) {
    const a = featureOf(from);
    if (!a) continue;
    if (!graph.has(a)) graph.set(a, new Set());
    for (const to of targets) {
      const b = featureOf(to);
      if (!b || b === a) continue;
      graph.get(a)!.add(b);
      if (!because.has(`${a} -> ${b}`)) because.set(`${a} -> ${b}`, `${from} imports ${to}`);
    }
  }
  return { graph, because };
}

/** Every cycle found by a depth-first walk (one per back edge), each as its path ending where it began. */
export function findCycles(graph: Graph): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    stack.push(node);
    for (const next of [...(graph.get(node) ?? [])].sort()) {
      if (!graph.has(next)) continue;
      if (state.get(next) === "open") cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

/** Imports from files under one of `from` to files under one of `to` (app-relative folder prefixes). */
export function importsBetween(files: Graph, from: string[], to: string[]): string[] {
  const under = (p: string, dirs: string[]) => dirs.some((d) => p.startsWith(`${d}/`));
  const out: string[] = [];
  for (const [file, targets] of files) {
    if (!under(file, from)) continue;
    for (const t of targets) if (under(t, to)) out.push(`${file} imports ${t}`);
  }
  return out;
}

const isServerFile = (p: string) => /\.server\.tsx?$/.test(p) || p.includes("/.server/");
const isTestFile = (p: string) => /\.test\.tsx?$/.test(p);

/**
 * Non-.server modules (tests aside) under the given app folders that import a type from a
 * .server module: view types shared with components live in plain modules.
 */
export function typesFromServerFiles(folders: string[]): string[] {
  const out: string[] = [];
  for (const dir of folders) {
    for (const file of sourceFiles(path.join(APP, dir))) {
      const p = rel(file);
      if (isServerFile(p) || isTestFile(p)) continue;
      for (const t of typeImportsOf(file)) if (isServerFile(rel(t))) out.push(`${p} imports a type from ${rel(t)}`);
    }
  }
  return out;
}

/**
 * app/lib's layers, lowest first. A lib file imports only files of its own layer or a lower one,
 * never a feature, a route, a component or the server edge; `browser` (modules that run only in
 * the browser) imports only `core` and itself.
 */
export const LIB_LAYERS = ["core", "server", "db", "mail", "http", "forms"] as const;

/** What lib may import from outside app/lib: the tables' types and the migrations. */
const LIB_MAY_IMPORT = (p: string) => p === "database.ts" || p.startsWith("../db/migrations/");

/** The imports of app/lib files that break the layer rule, as "lib/x/a.ts imports y". */
export function libLayerBreaks(files: Graph): string[] {
  const out: string[] = [];
  const rank = (layer: string) => (LIB_LAYERS as readonly string[]).indexOf(layer);
  for (const [file, targets] of files) {
    const parts = file.split("/");
    if (parts[0] !== "lib" || isTestFile(file)) continue;
    const layer = parts.length > 2 ? parts[1]! : "(no layer)";
    if (layer !== "browser" && rank(layer) < 0) {
      out.push(`${file} is in no layer folder (${[...LIB_LAYERS, "browser"].join(", ")})`);
      continue;
    }
    for (const t of targets) {
      const tp = t.split("/");
      if (tp[0] !== "lib" && LIB_MAY_IMPORT(t)) continue;
      if (tp[0] !== "lib") {
        out.push(`${file} imports ${t}, outside app/lib`);
        continue;
      }
      const target = tp.length > 2 ? tp[1]! : "(no layer)";
      const ok = layer === "browser" ? target === "core" || target === "browser" : target !== "browser" && rank(target) >= 0 && rank(target) <= rank(layer);
      if (!ok) out.push(`${file} (${layer}) imports ${t} (${target})`);
    }
  }
  return out;
}

const files = fileGraph([...sourceFiles(FEATURES), ...sourceFiles(path.join(APP, "lib"))]);

/** Folders whose files never import another folder's (the one above them). */
const NEVER_IMPORTS: { name: string; from: string[]; to: string[]; why: string }[] = [
  {
    name: "event badges and merch never import reconciliation",
    from: ["features/event-badges", "features/merch"],
    to: ["features/reconciliation"],
    why: "reconciliation joins payments to the orders: it calls the order features, never the other way",
  },
];

/** Every client or shared module: its view types come from plain modules, never .server ones. */
const VIEW_TYPES_OUTSIDE_SERVER = ["features", "lib", "components", "routes"];

describe("the shape of app/", () => {
  it("has no import cycle between feature folders", () => {
    const { graph, because } = folderGraph(files);
    const cycles = findCycles(graph).map((c) =>
      [c.join(" -> "), ...c.slice(1).map((to, i) => `  ${because.get(`${c[i]} -> ${to}`)}`)].join("\n"),
    );
    expect(cycles, `feature folders that import each other:\n${cycles.join("\n")}`).toEqual([]);
  });

  it.each(NEVER_IMPORTS)("$name", ({ from, to, why }) => {
    const found = importsBetween(files, from, to);
    expect(found, `${why}:\n${found.join("\n")}`).toEqual([]);
  });

  it("has no file import cycle in features/ and lib/", () => {
    const cycles = findCycles(files).map((c) => c.join(" -> "));
    expect(cycles, `files that import each other:\n${cycles.join("\n")}`).toEqual([]);
  });

  it("keeps app/lib in layers: no feature, route or server import, no import from a layer above", () => {
    const found = libLayerBreaks(files);
    expect(found, `app/lib files that break its layers (${LIB_LAYERS.join(" < ")}; browser imports core only):\n${found.join("\n")}`).toEqual([]);
  });

  it("keeps view types out of .server files", () => {
    const found = typesFromServerFiles(VIEW_TYPES_OUTSIDE_SERVER);
    expect(found, found.join("\n")).toEqual([]);
  });

  // React Router passes each loader and action the request as it came (future.v8_passThroughRequests):
  // a data request's `request.url` ends in `.data` and carries `_routes`, a form posted to an index
  // route carries `?index`. The address asked for is the `url` argument.
  it("reads the address a loader or action answers from its url argument, never from request.url", () => {
    const found = [...sourceFiles(path.join(APP, "routes")), ...sourceFiles(FEATURES)]
      .filter((file) => !/\.test\.tsx?$/.test(file))
      .flatMap((file) =>
        fs
          .readFileSync(file, "utf8")
          .split("\n")
          .flatMap((line, i) => (/\brequest\.url\b/.test(line) ? [`${rel(file)}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(found, found.join("\n")).toEqual([]);
  });
});
