/**
 * Manifest files at the project root and what they declare (tasks, scripts,
 * targets, module names), and the build, test and lint commands they imply.
 * The first manifest that names a command wins: a Makefile target, then
 * deno.json tasks, package.json scripts, and the language defaults.
 *
 * @example
 * ```ts
 * const { manifests, commands } = readManifests("/repo", ["deno.json", "main.ts"], false);
 * commands.test; // "deno task test"
 * ```
 * @module
 */
import { join } from "node:path";
import { readTextFileSync } from "../tools/bounded_read.ts";

/** One manifest and a one-line summary of what it declares. */
export interface Manifest {
  file: string;
  summary: string;
}

/** Detected commands (absent when nothing suggests one). */
export interface Commands {
  build?: string;
  test?: string;
  lint?: string;
}

/** Manifests found and the commands they suggest. */
export interface ManifestFacts {
  manifests: Manifest[];
  commands: Commands;
}

type Reader = (root: string, names: ReadonlySet<string>, out: ManifestFacts) => void;

/** Reads the manifests among `rootFiles` (names of the root's files). */
export function readManifests(
  root: string,
  rootFiles: readonly string[],
  hasTestsDir: boolean,
): ManifestFacts {
  const names = new Set(rootFiles);
  const out: ManifestFacts = { manifests: [], commands: {} };
  for (const read of [makefile, deno, packageJson, goMod, cargo, python(hasTestsDir), others]) {
    read(root, names, out);
  }
  return out;
}

function text(root: string, name: string): string | null {
  try {
    return readTextFileSync(join(root, name));
  } catch {
    return null;
  }
}

function suggest(out: ManifestFacts, kind: keyof Commands, command: string | undefined): void {
  if (command !== undefined) out.commands[kind] ??= command;
}

function list(label: string, items: readonly string[], max = 12): string {
  if (items.length === 0) return "";
  const shown = items.slice(0, max).join(", ");
  return `${label}: ${shown}${items.length > max ? `, +${items.length - max}` : ""}`;
}

const makefile: Reader = (root, names, out) => {
  const file = ["Makefile", "makefile", "GNUmakefile"].find((n) => names.has(n));
  const body = file ? text(root, file) : null;
  if (!file || body === null) return;
  const targets = [...body.matchAll(/^([A-Za-z0-9][\w./-]*)\s*:(?!=)/gm)].map((m) => m[1]);
  const unique = [...new Set(targets)];
  out.manifests.push({ file, summary: list("targets", unique) || "no targets" });
  const has = (t: string) => unique.includes(t);
  suggest(out, "test", has("test") ? "make test" : has("check") ? "make check" : undefined);
  suggest(out, "build", has("build") ? "make build" : has("all") ? "make" : undefined);
  suggest(out, "lint", has("lint") ? "make lint" : undefined);
};

const deno: Reader = (root, names, out) => {
  const file = ["deno.json", "deno.jsonc"].find((n) => names.has(n));
  const json = file ? parseJson(text(root, file), true) : null;
  if (!file || !json) return;
  const tasks = Object.keys(record(json.tasks));
  const parts = [list("tasks", tasks), typeof json.name === "string" ? `name ${json.name}` : ""];
  out.manifests.push({ file, summary: parts.filter(Boolean).join("; ") || "no tasks" });
  const task = (t: string) => tasks.includes(t) ? `deno task ${t}` : undefined;
  suggest(out, "test", task("test") ?? "deno test");
  suggest(out, "lint", task("lint") ?? "deno lint");
  const check = task("build") ?? task("check") ??
    (names.has("main.ts") ? "deno check main.ts" : undefined);
  suggest(out, "build", check);
};

const NO_TEST = /no test specified/;

const packageJson: Reader = (root, names, out) => {
  const json = names.has("package.json") ? parseJson(text(root, "package.json"), false) : null;
  if (!json) return;
  const scripts = record(json.scripts);
  const deps = Object.keys(record(json.dependencies)).length +
    Object.keys(record(json.devDependencies)).length;
  const pm = names.has("pnpm-lock.yaml")
    ? "pnpm"
    : names.has("yarn.lock")
    ? "yarn"
    : names.has("bun.lock") || names.has("bun.lockb")
    ? "bun"
    : "npm";
  const parts = [
    typeof json.name === "string" ? `name ${json.name}` : "",
    list("scripts", Object.keys(scripts)),
    `${deps} dependencies`,
    pm === "npm" ? "" : `uses ${pm}`,
  ];
  out.manifests.push({ file: "package.json", summary: parts.filter(Boolean).join("; ") });
  const run = (s: string) =>
    typeof scripts[s] === "string" && !NO_TEST.test(scripts[s] as string)
      ? `${pm} run ${s}`
      : undefined;
  suggest(out, "test", run("test")?.replace(/^(npm|pnpm|yarn) run test$/, "$1 test"));
  suggest(out, "build", run("build") ?? run("typecheck") ?? run("check"));
  suggest(out, "lint", run("lint"));
};

const goMod: Reader = (root, names, out) => {
  const body = names.has("go.mod") ? text(root, "go.mod") : null;
  if (body === null) return;
  const mod = body.match(/^module\s+(\S+)/m)?.[1];
  const go = body.match(/^go\s+(\S+)/m)?.[1];
  const requires = [...body.matchAll(/^\s+[\w.-]+\.[\w./-]+\s+v\S+/gm)].length +
    [...body.matchAll(/^require\s+[\w.-]+\.[\w./-]+\s+v\S+/gm)].length;
  const parts = [mod ? `module ${mod}` : "", go ? `go ${go}` : "", `${requires} requirements`];
  out.manifests.push({ file: "go.mod", summary: parts.filter(Boolean).join("; ") });
  suggest(out, "build", "go build ./...");
  suggest(out, "test", "go test ./...");
  suggest(out, "lint", "go vet ./...");
};

const cargo: Reader = (root, names, out) => {
  const body = names.has("Cargo.toml") ? text(root, "Cargo.toml") : null;
  if (body === null) return;
  const sections = tomlSections(body);
  const name = sections.get("package")?.match(/^name\s*=\s*"([^"]+)"/m)?.[1];
  const deps = countKeys(sections.get("dependencies"));
  const parts = [
    name ? `package ${name}` : "",
    sections.has("workspace") ? "workspace" : "",
    `${deps} dependencies`,
  ];
  out.manifests.push({ file: "Cargo.toml", summary: parts.filter(Boolean).join("; ") });
  suggest(out, "build", "cargo build");
  suggest(out, "test", "cargo test");
  suggest(out, "lint", "cargo clippy");
};

function python(hasTestsDir: boolean): Reader {
  return (root, names, out) => {
    const py = names.has("pyproject.toml") ? text(root, "pyproject.toml") : null;
    const reqs = ["requirements.txt", "requirements-dev.txt"].filter((n) => names.has(n));
    if (py === null && reqs.length === 0 && !names.has("setup.py")) return;
    const all = [py ?? "", ...reqs.map((r) => text(root, r) ?? "")].join("\n");
    const runner = names.has("uv.lock")
      ? "uv run "
      : names.has("poetry.lock") || /\[tool\.poetry\]/.test(all)
      ? "poetry run "
      : "";
    if (py !== null) {
      const sections = tomlSections(py);
      const name = sections.get("project")?.match(/^name\s*=\s*"([^"]+)"/m)?.[1];
      const tools = [...sections.keys()].filter((k) => k.startsWith("tool."))
        .map((k) => k.split(".")[1]);
      const parts = [name ? `project ${name}` : "", list("tools", [...new Set(tools)])];
      out.manifests.push({ file: "pyproject.toml", summary: parts.filter(Boolean).join("; ") });
    }
    for (const r of reqs) {
      const lines = (text(root, r) ?? "").split("\n").filter((l) => /^\s*[A-Za-z]/.test(l));
      out.manifests.push({ file: r, summary: `${lines.length} packages` });
    }
    if (/\bpytest\b/.test(all) || hasTestsDir) suggest(out, "test", `${runner}python -m pytest`);
    if (/\bruff\b/.test(all)) suggest(out, "lint", `${runner}ruff check .`);
    else if (/\bflake8\b/.test(all)) suggest(out, "lint", `${runner}flake8`);
  };
}

const others: Reader = (_root, names, out) => {
  if (names.has("pom.xml")) {
    out.manifests.push({ file: "pom.xml", summary: "Maven" });
    suggest(out, "build", "mvn -q compile");
    suggest(out, "test", "mvn -q test");
  }
  const gradle = ["build.gradle.kts", "build.gradle"].find((n) => names.has(n));
  if (gradle) {
    const g = names.has("gradlew") ? "./gradlew" : "gradle";
    out.manifests.push({ file: gradle, summary: "Gradle" });
    suggest(out, "build", `${g} build -x test`);
    suggest(out, "test", `${g} test`);
  }
  if (names.has("CMakeLists.txt")) {
    out.manifests.push({ file: "CMakeLists.txt", summary: "CMake" });
    suggest(out, "build", "cmake -B build && cmake --build build");
    suggest(out, "test", "ctest --test-dir build");
  }
  for (const f of ["Gemfile", "composer.json"]) {
    if (names.has(f)) out.manifests.push({ file: f, summary: "present" });
  }
};

/** Section name → body of a TOML file (a small reader: headers and their lines). */
export function tomlSections(body: string): Map<string, string> {
  const sections = new Map<string, string>();
  let current = "";
  const lines: string[] = [];
  const flush = () => sections.set(current, lines.splice(0).join("\n"));
  for (const line of body.split(/\r?\n/)) {
    const header = line.match(/^\s*\[\[?([^\]]+)\]\]?\s*(#.*)?$/);
    if (header) {
      flush();
      current = header[1].trim();
    } else lines.push(line);
  }
  flush();
  return sections;
}

function countKeys(section: string | undefined): number {
  return (section ?? "").split("\n").filter((l) => /^\s*[\w-]+\s*=/.test(l)).length;
}

function record(v: unknown): Record<string, unknown> {
  return v && typeof v === "object" && !Array.isArray(v) ? v as Record<string, unknown> : {};
}

/** Parses JSON, or JSONC (comments and trailing commas) when `jsonc`; null when it cannot. */
export function parseJson(body: string | null, jsonc: boolean): Record<string, unknown> | null {
  if (body === null) return null;
  const source = jsonc ? stripJsonc(body) : body;
  try {
    const v = JSON.parse(source);
    return v && typeof v === "object" && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

function stripJsonc(body: string): string {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '"') {
      const end = stringEnd(body, i);
      out += body.slice(i, end);
      i = end - 1;
    } else if (c === "/" && body[i + 1] === "/") {
      while (i < body.length && body[i] !== "\n") i++;
      out += "\n";
    } else if (c === "/" && body[i + 1] === "*") {
      const end = body.indexOf("*/", i + 2);
      i = end < 0 ? body.length : end + 1;
    } else out += c;
  }
  return out.replace(/,(\s*[}\]])/g, "$1");
}

function stringEnd(body: string, start: number): number {
  for (let i = start + 1; i < body.length; i++) {
    if (body[i] === "\\") i++;
    else if (body[i] === '"') return i + 1;
  }
  return body.length;
}
