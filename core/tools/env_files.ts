/**
 * `.env` files hold secrets: reading one asks (the paths guard), and content
 * searches leave them out. Templates meant to be committed (`.env.example`,
 * `.env.sample`, `.env.template`, `.env.dist`, `.env.defaults`) are not secret.
 *
 * @example
 * ```ts
 * isSecretEnvFile(".env.local"); // true
 * isSecretEnvFile(".env.example"); // false
 * ```
 * @module
 */

const TEMPLATE = /\.(example|sample|template|dist|defaults|schema)$/i;

/** Whether a file name (last path segment) is an `.env*` file that may hold secrets. */
export function isSecretEnvFile(name: string): boolean {
  const n = name.toLowerCase();
  return (n === ".env" || n.startsWith(".env.") || n === ".envrc" || n.endsWith(".env")) &&
    !TEMPLATE.test(n);
}

/** Whether any segment of a `/`-separated path is a secret `.env*` entry. */
export function inSecretEnvFile(path: string): boolean {
  return path.replace(/\\/g, "/").split("/").some((s) => s !== "" && isSecretEnvFile(s));
}
