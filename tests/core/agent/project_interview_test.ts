import assert from "node:assert/strict";
import { briefFromText, renderBrief } from "../../../core/agent/project_interview.ts";

Deno.test("`briefFromText()` takes language, interface, dependencies and tests from a task", () => {
  assert.deepEqual(briefFromText("A CLI word counter in Go, no dependencies, with tests"), {
    purpose: "A CLI word counter in Go, no dependencies, with tests",
    language: "Go",
    interface: "command-line tool",
    dependencies: "none (standard library only)",
    tests: true,
  });
  assert.deepEqual(briefFromText("a REST API for todos in Python without tests"), {
    purpose: "a REST API for todos in Python without tests",
    language: "Python",
    interface: "web API",
    tests: false,
  });
  assert.equal(briefFromText("a typescript library for node").language, "TypeScript (Node)");
  assert.equal(briefFromText("a small deno tool").language, "TypeScript (Deno)");
  assert.equal(briefFromText("let's go, build me something nice").language, undefined);
});

Deno.test("`renderBrief()` states every answer, leaves open ones to the agent and suggests a layout", () => {
  const text = renderBrief({
    purpose: "count words in text files",
    language: "TypeScript (Deno)",
    interface: "command-line tool",
    dependencies: "none (standard library only)",
    tests: true,
  });
  assert.match(text, /^Build a new project in this directory\.\n/);
  assert.match(text, /\nPurpose: count words in text files\n/);
  assert.match(text, /\nLanguage: TypeScript \(Deno\)\n/);
  assert.match(text, /\nTests: yes, with the language's own test runner \(`deno test`\)\n/);
  assert.match(text, /\nSuggested files \(adjust to the purpose\): deno\.json/);
  assert.match(text, /First reply with the plan: the files to create, one line each\./);
  const open = renderBrief({ purpose: "a tiny web page" });
  assert.match(open, /\nLanguage: not said: choose the simplest fitting option and say which\n/);
  assert.doesNotMatch(open, /Suggested files/);
});
