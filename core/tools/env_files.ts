/**
 * `.env` files hold secrets: reading one asks (the paths guard), and content
 * searches leave them out. Templates meant to be committed (`.env.example`,
 * `.env.sample`, `.env.template`, `.env.dist`, `.env.defaults`) are not secret.
 * So do the places where keys and passwords are kept for the user, wherever
 * they are ({@link inCredentialStore}): SSH and GnuPG keys, cloud and registry
 * credentials, `.netrc`, the system's password hashes, and what a running
 * program holds (`/proc/<pid>/environ`, `mem`, `cmdline`: minoc's own key is
 * in its environment or arguments).
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

/**
 * Where keys and passwords are kept for the user, as a path (any form: `~/`,
 * `$HOME/`, absolute): private keys in `.ssh/` (not `*.pub` nor
 * `known_hosts`), `.gnupg/`, cloud, registry and git credentials, `.netrc`,
 * `.pgpass`, the system's password hashes, minoc's own key files
 * (`.minoc/config/keys/`, written by `minoc setup`), and a process's
 * environment, memory and arguments under `/proc` (any pid spelling: `self`,
 * `$PPID`, a glob).
 */
const CREDENTIAL_STORE = new RegExp(
  [
    String.raw`(^|/)\.ssh/(?!.*\.pub$)(?!known_hosts)[^/]+$`,
    String.raw`(^|/)\.gnupg(/|$)`,
    String.raw`(^|/)(\.netrc|_netrc|\.pgpass|\.git-credentials|\.pypirc)$`,
    String.raw`(^|/)\.aws/(credentials|config)$`,
    String.raw`(^|/)\.docker/config\.json$`,
    String.raw`(^|/)\.kube/config$`,
    String.raw`(^|/)\.config/gh/hosts\.ya?ml$`,
    String
      .raw`(^|/)\.config/gcloud/(credentials\.db|access_tokens\.db|application_default_credentials\.json|legacy_credentials(/|$))`,
    String.raw`(^|/)\.azure/(accessTokens\.json|msal_token_cache\.)`,
    String.raw`(^|/)id_(rsa|dsa|ecdsa|ed25519)(_sk)?$`,
    String.raw`^/etc/(shadow|gshadow|master\.passwd)-?$`,
    String.raw`(^|/)proc/[^/]+/(task/[^/]+/)?(environ|mem|cmdline)$`,
    String.raw`(^|/)\.minoc/config/keys(/|$)`,
  ].join("|"),
  "i",
);

/** Whether `path` is in one of the user's credential stores (see {@link CREDENTIAL_STORE}). */
export function inCredentialStore(path: string): boolean {
  return CREDENTIAL_STORE.test(path.replace(/\\/g, "/"));
}
