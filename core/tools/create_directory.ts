/**
 * `create_directory`: makes a directory and any missing parents.
 *
 * @module
 */
import * as z from "zod";
import { defineTool, fail, ok } from "./define.ts";
import { pathArg } from "./file_io.ts";
import { displayPath, resolvePath } from "./paths.ts";

/** Creates a directory (parents too); an existing directory is fine. */
export const createDirectory = defineTool({
  name: "create_directory",
  kind: "write",
  description: "Create a folder and its parents.",
  params: [
    {
      name: "path",
      description: "Folder path",
      required: true,
    },
  ],
  schema: z.object({ path: pathArg }),
  example: { path: "src/utils" },
  async execute(args, ctx) {
    const abs = resolvePath(ctx, args.path);
    const shown = displayPath(ctx, abs);
    const info = await ctx.fs.stat(abs);
    if (info?.isDirectory) return ok(`Directory "${shown}" already exists`);
    if (info) return fail("exists", `"${shown}" already exists and is a file`);
    await ctx.fs.mkdir(abs, { recursive: true });
    return {
      ...ok(`Created directory "${shown}"`, `Created ${shown}/`),
      changes: [{ path: abs, action: "create" }],
    };
  },
});
