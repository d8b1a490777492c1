/**
 * Bulk deletion of local or remote data: container and volume prunes,
 * dropped databases, flushed caches, destroyed infrastructure, recursive
 * bucket deletes.
 *
 * @module
 */
import { lowerArgs } from "../flags.ts";
import { defineRule } from "./helpers.ts";

/** Bulk deletion of local or remote data. */
export const bulkDelete = defineRule(
  "bulk-delete",
  "warn",
  "high",
  "Bulk deletion of data: docker system prune -af, volume prune, dropdb, FLUSHALL, terraform destroy, kubectl delete, aws s3 rm --recursive",
  (seg) => {
    const n = seg.name;
    const args = lowerArgs(seg);
    if (
      (n === "docker" || n === "podman") &&
      (args.includes("prune") ||
        /^(volume|system)$/.test(args[0] ?? "") && /^(rm|prune)$/.test(args[1] ?? ""))
    ) {
      return `Deletes containers, images or volumes in bulk: ${seg.text}`;
    }
    if (
      (n === "docker" || n === "podman") && /^(rm|rmi)$/.test(args[0] ?? "") &&
      seg.args.some((a) => !a.literal)
    ) return `Deletes containers in bulk: ${seg.text}`;
    if (n === "dropdb" || n === "clear-recyclebin") return `Deletes data: ${seg.text}`;
    if (/^redis-cli$/.test(n) && args.some((a) => a === "flushall" || a === "flushdb")) {
      return `Deletes a Redis database: ${seg.text}`;
    }
    if (
      /^(psql|mysql|sqlite3|mongo|mongosh)$/.test(n) &&
      args.some((a) => /\bdrop\s+(database|schema|table)\b|dropdatabase\(/.test(a))
    ) return `Drops a database: ${seg.text}`;
    if ((n === "terraform" || n === "pulumi") && args.includes("destroy")) {
      return `Destroys infrastructure: ${seg.text}`;
    }
    if (n === "kubectl" && args[0] === "delete") return `Deletes cluster resources: ${seg.text}`;
    if (n === "helm" && /^(uninstall|delete)$/.test(args[0] ?? "")) {
      return `Deletes a release: ${seg.text}`;
    }
    if (
      n === "aws" && args[0] === "s3" &&
      (args[1] === "rb" || args[1] === "rm" && args.includes("--recursive"))
    ) return `Deletes cloud storage: ${seg.text}`;
    if (n === "gsutil" && args.includes("rm") && args.some((a) => /^-[a-z]*r/.test(a))) {
      return `Deletes cloud storage: ${seg.text}`;
    }
    if (
      (n === "az" && args[1] === "delete" && args[0] === "group") ||
      (n === "gcloud" && args.includes("delete") && args.includes("projects"))
    ) {
      return `Deletes cloud resources: ${seg.text}`;
    }
    return null;
  },
);
