/**
 * Commands that name an `.env` file (`cat .env`, `grep KEY .env.local`,
 * `source .env`, `Get-Content .env`, `cp .env /tmp`): its secrets would reach
 * the command's output and so the model, so the command asks whatever the
 * permission rules say.
 *
 * @module
 */
import { inSecretEnvFile } from "../../../tools/env_files.ts";
import { defineRule } from "./helpers.ts";

/** A command that names a secret `.env*` file. */
export const secretFiles = defineRule(
  "secret-files",
  "warn",
  "medium",
  "Commands that name an .env file, whose secrets would be shown to the model",
  (seg) => {
    const words = [...seg.args, ...seg.writes];
    const hit = words.find((w) => w.text.split("=").some((part) => inSecretEnvFile(part)));
    return hit ? `Names the secret file "${hit.text}"` : null;
  },
);
