import assert from "node:assert/strict";
import { RequestError } from "@agentclientprotocol/sdk";
import { callLocations, previewContent, toolKind } from "../../../cli/acp/tool_view.ts";
import { promptText } from "../../../cli/acp/prompt_text.ts";
import { checkMcpServers } from "../../../cli/acp/mcp.ts";
import { tools } from "../../../core/tools/mod.ts";

Deno.test("toolKind() gives every registered tool a kind, and edits, deletes and commands their own", () => {
  const kinds = Object.fromEntries(tools.map((t) => [t.name, toolKind(t.name)]));
  assert.equal(kinds.read_file, "read");
  assert.equal(kinds.search_files, "search");
  assert.equal(kinds.replace_in_file, "edit");
  assert.equal(kinds.delete_file, "delete");
  assert.equal(kinds.execute_command, "execute");
  assert.equal(toolKind("no_such_tool"), "other");
  const other = tools.filter((t) => toolKind(t.name) === "other").map((t) => t.name);
  assert.deepEqual(other, ["set_env", "unset_env"]);
});

Deno.test("callLocations() resolves relative paths and keeps the first line read", () => {
  assert.deepEqual(callLocations({ path: "src/a.ts", start_line: "12" }, "/p"), [
    { path: "/p/src/a.ts", line: 12 },
  ]);
  assert.deepEqual(callLocations({ path: ["a.md", "/abs/b.md"] }, "/p"), [
    { path: "/p/a.md" },
    { path: "/abs/b.md" },
  ]);
  assert.deepEqual(callLocations({ command: "ls" }, "/p"), []);
});

Deno.test("previewContent() turns edits into diffs with null old text for new files", () => {
  assert.deepEqual(previewContent({ kind: "edit", path: "/p/a", before: null, after: "x" }), [
    { type: "diff", path: "/p/a", oldText: null, newText: "x" },
  ]);
  assert.equal(previewContent({ kind: "none" }).length, 0);
});

Deno.test("promptText() joins text, links and embedded files, and refuses images", () => {
  const text = promptText([
    { type: "text", text: "Fix this" },
    { type: "resource_link", uri: "file:///p/a.ts", name: "a.ts" },
    { type: "resource", resource: { uri: "file:///p/b.ts", text: "let b = 1;" } },
  ]);
  assert.equal(text, "Fix this\n@/p/a.ts\nContents of /p/b.ts:\n```\nlet b = 1;\n```");
  assert.throws(
    () => promptText([{ type: "image", data: "AA", mimeType: "image/png" }]),
    (e) => e instanceof RequestError && /prompt\[0\]: content type "image"/.test(e.message),
  );
  assert.throws(() => promptText([{ type: "text", text: "  " }]), /the request is empty/);
});

Deno.test("checkMcpServers() accepts stdio servers and names the bad one otherwise", () => {
  const ok = checkMcpServers([
    { name: "git", command: "/usr/bin/mcp-git", args: ["--x"], env: [{ name: "A", value: "1" }] },
  ]);
  assert.deepEqual(ok, [{
    name: "git",
    command: "/usr/bin/mcp-git",
    args: ["--x"],
    env: { A: "1" },
  }]);
  assert.throws(
    () => checkMcpServers([{ name: "rel", command: "mcp-git", args: [], env: [] }]),
    /mcpServers\[0\] "rel": command "mcp-git" must be an absolute path/,
  );
  assert.throws(
    () =>
      checkMcpServers([
        { name: "a", command: "/x", args: [], env: [] },
        { name: "a", command: "/y", args: [], env: [] },
      ]),
    /mcpServers\[1\] "a": the name is used twice/,
  );
  assert.throws(
    () => checkMcpServers([{ type: "sse", name: "s", url: "http://h", headers: [] }]),
    /transport "sse" is not supported/,
  );
});
