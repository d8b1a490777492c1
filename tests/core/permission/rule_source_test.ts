import assert from "node:assert/strict";
import { RECHECK_MS, RuleSource } from "../../../core/permission/rule_source.ts";
import { addRules, permissionsPath } from "../../../core/permission/rules_store.ts";

const draft = (pattern: string) => ({
  tool: "read_file",
  pattern,
  action: "deny" as const,
  scope: "*",
});

Deno.test("`RuleSource.all()` sees another process's rules once RECHECK_MS passed, its own saves at once", async () => {
  const home = await Deno.makeTempDir();
  try {
    const source = new RuleSource({ homeDir: home });
    assert.deepEqual((await source.all()).rules, [], "no file: no rules");
    // Another process saves a rule (the same file, another writer).
    const other = await addRules(permissionsPath(home), [draft("secrets/**")]);
    assert.ok(other.ok);
    assert.deepEqual((await source.all()).rules, [], "looked at less than RECHECK_MS ago");
    await new Promise((r) => setTimeout(r, RECHECK_MS + 50));
    assert.deepEqual((await source.all()).rules.map((r) => r.pattern), ["secrets/**"]);
    // This session's own "allow always" counts at once, with the file's other rules.
    const saved = await source.save([{ ...draft("*.md"), action: "allow" }]);
    assert.equal(saved.saved, true);
    assert.deepEqual((await source.all()).rules.map((r) => r.pattern).sort(), [
      "*.md",
      "secrets/**",
    ]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
