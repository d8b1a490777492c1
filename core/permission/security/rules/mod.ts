/**
 * The built-in rules, block rules first. Structural rules are found while
 * reading (they never match a segment) and are listed here so they can be
 * shown and disabled like the others.
 *
 * @module
 */
import type { Rule } from "../types.ts";
import { deleteOutside, deleteProtected, permissions, permissionsProtected } from "./delete.ts";
import { bulkDelete } from "./bulk_delete.ts";
import { gitHistory, globalInstall, kill, publish, userConfig } from "./dev.ts";
import { defineRule } from "./helpers.ts";
import {
  accounts,
  bootConfig,
  machineConfig,
  mounts,
  registryMachine,
  services,
} from "./machine.ts";
import {
  download,
  dynamicCommand,
  encodedPayload,
  firewall,
  listener,
  pipeToShell,
  remoteCode,
  reverseShell,
} from "./network.ts";
import { diskWrite, privilegeEscalation, shutdown, systemFiles } from "./system.ts";
import { secretFiles } from "./secrets.ts";
import { gitCode } from "./later.ts";
import { clearLogs, machinePolicy } from "./logs.ts";

const never = () => null;

/** Structural rules, reported by the readers. */
export const STRUCTURAL: readonly Rule[] = [
  defineRule(
    "fork-bomb",
    "block",
    "critical",
    "Fork bombs: a function or batch file that starts copies of itself",
    never,
  ),
  defineRule(
    "too-deep",
    "block",
    "critical",
    "Code nested more than 8 levels deep (bash -c inside eval inside …), too deep to follow",
    never,
  ),
  defineRule(
    "parse-error",
    "warn",
    "medium",
    "The command is not valid shell syntax, so it cannot be checked reliably",
    never,
  ),
];

/** Every built-in rule, in the order verdicts are reported. */
export const BUILTIN_RULES: readonly Rule[] = [
  deleteProtected,
  diskWrite,
  privilegeEscalation,
  firewall,
  reverseShell,
  remoteCode,
  encodedPayload,
  registryMachine,
  systemFiles,
  permissionsProtected,
  services,
  accounts,
  mounts,
  bootConfig,
  shutdown,
  machineConfig,
  machinePolicy,
  clearLogs,
  STRUCTURAL[0],
  STRUCTURAL[1],
  gitHistory,
  publish,
  deleteOutside,
  bulkDelete,
  pipeToShell,
  download,
  permissions,
  kill,
  globalInstall,
  userConfig,
  gitCode,
  listener,
  dynamicCommand,
  secretFiles,
  STRUCTURAL[2],
];
