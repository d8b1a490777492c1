/**
 * Commands that name an `.env` file (`cat .env`, `grep KEY .env.local`,
 * `source .env`, `Get-Content .env`, `cp .env /tmp`) or one of the user's
 * credential stores (`cat ~/.ssh/id_rsa`, `$HOME/.aws/credentials`,
 * `/etc/shadow`): its secrets would reach the command's output and so the
 * model, so the command asks whatever the permission rules say.
 *
 * @module
 */
import { inCredentialStore, inSecretEnvFile } from "../../../tools/env_files.ts";
import { defineRule } from "./helpers.ts";

/** Programs that read a private key without showing it (`ssh-keygen -y` prints the public key). */
const KEY_USERS = new Set(["ssh-keygen", "ssh-add"]);

/** A command that names a secret `.env*` file or a credential store. */
export const secretFiles = defineRule(
  "secret-files",
  "warn",
  "medium",
  "Commands that name an .env file or a credential store, whose secrets would be shown to the model",
  (seg) => {
    // These read a key only to use it or to print its public half.
    if (KEY_USERS.has(seg.name)) return null;
    const words = [...seg.args, ...seg.writes];
    const secret = (part: string) => inSecretEnvFile(part) || inCredentialStore(part);
    const hit = words.find((w) => w.text.split("=").some(secret));
    return hit ? `Names the secret file "${hit.text}"` : null;
  },
);
