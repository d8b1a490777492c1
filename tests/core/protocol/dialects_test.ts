/**
 * The dialect corpus (issue #16): replies written the way open models write
 * tool calls, from the literal formats in vLLM's and llama.cpp's parsers and
 * the models' chat templates, adapted to minoc's tools. Each parses to the
 * same call as its canonical twin, whole and at random cut points.
 */
import assert from "node:assert/strict";
import { formatCall } from "../../../core/protocol/feedback.ts";
import { CallScanner, parseReply } from "../../../core/protocol/xml.ts";
import { cutAt, perChar, randomChunks, rng, type Shape, shape, stream } from "./fuzz.ts";
import { SPECS, TOOLS } from "./specs.ts";

interface Case {
  id: string;
  source: string;
  dialect?: string;
  input: string;
  expected: Shape;
}

const CORPUS = new URL("../../fixtures/protocol/dialects.jsonl", import.meta.url);

async function load(): Promise<Case[]> {
  const text = await Deno.readTextFile(CORPUS);
  return text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as Case);
}

function dialectOf(r: ReturnType<typeof parseReply>): string | undefined {
  return r.kind === "none" ? undefined : r.dialect;
}

Deno.test("dialect corpus holds at least 80 replies from at least 12 dialects", async () => {
  const cases = await load();
  assert.ok(cases.length >= 80, `only ${cases.length} cases`);
  const dialects = new Set(cases.map((c) => c.dialect).filter((d) => d !== undefined));
  assert.ok(dialects.size >= 12, [...dialects].join(", "));
});

Deno.test("`parseReply()` reads every dialect reply as its expected call and dialect", async () => {
  for (const c of await load()) {
    const r = parseReply(c.input, SPECS);
    assert.deepEqual(shape(r), c.expected, c.id);
    if (c.dialect !== undefined) assert.equal(dialectOf(r), c.dialect, c.id);
  }
});

Deno.test("`parseReply()` gives each dialect call the same call as its canonical twin", async () => {
  for (const c of await load()) {
    if (!("tool" in c.expected) || c.expected.tool === null) continue;
    const twin = formatCall(c.expected.tool, c.expected.params);
    const r = parseReply(twin, SPECS);
    assert.deepEqual(shape(r), c.expected, `${c.id}: ${twin}`);
    assert.equal(dialectOf(r), undefined, c.id);
  }
});

Deno.test("`CallScanner` gives the same result and prose at random cut points of each dialect reply", async () => {
  const next = rng(16);
  for (const c of await load()) {
    const whole = stream([c.input], SPECS);
    const ways = [perChar(c.input), randomChunks(c.input, 3), randomChunks(c.input, 9, 40)];
    for (let k = 0; k < 8; k++) {
      ways.push(cutAt(c.input, [Math.floor(next() * c.input.length)]));
    }
    for (const chunks of ways) {
      const got = stream(chunks, SPECS);
      assert.deepEqual(got.result, whole.result, `${c.id}: ${JSON.stringify(chunks)}`);
      assert.equal(got.prose, whole.prose, `${c.id}: prose, ${JSON.stringify(chunks)}`);
    }
  }
});

Deno.test("`CallScanner` never shows a dialect call's markup as prose", async () => {
  for (const c of await load()) {
    const got = stream(randomChunks(c.input, 5), SPECS);
    if (got.result.kind !== "call") continue;
    for (const mark of ["<tool_call>", "[TOOL_CALLS]", "<|", "<function", "<invoke", '"name"']) {
      assert.ok(!got.prose.includes(mark), `${c.id}: ${JSON.stringify(got.prose)}`);
    }
  }
});

Deno.test("`CallScanner.reasoning()` holds the <think> text and the visible text lacks it", () => {
  const s = new CallScanner(SPECS);
  for (const piece of ["<thi", "nk>\nplan: read ", "it\n</th", "ink>\n\nReading.\n"]) s.push(piece);
  assert.equal(s.finish().kind, "none");
  assert.equal(s.reasoning(), "plan: read it");
  assert.equal(s.visibleText(), "\n\nReading.\n");
});

Deno.test("`parseReply()` decodes &amp; in a command only when every & is an entity, and says so", () => {
  const call = (cmd: string) =>
    parseReply(
      `<tool_call>\n<execute_command>\n<command>${cmd}</command>\n</execute_command>\n</tool_call>`,
      TOOLS,
    );
  const decoded = call("npm test &amp;&amp; echo &quot;ok&quot;");
  assert.equal(decoded.kind === "call" && decoded.call.params.command, 'npm test && echo "ok"');
  assert.match(decoded.kind === "call" ? decoded.notice ?? "" : "", /&amp;&amp;.*was read as/);
  const mixed = call("echo 'a &amp; b' && ls");
  assert.equal(mixed.kind === "call" && mixed.call.params.command, "echo 'a &amp; b' && ls");
  assert.equal(mixed.kind === "call" && mixed.notice, undefined);
  const file = parseReply(
    "<tool_call><write_to_file><path>a.html</path><content>a &amp; b</content></write_to_file></tool_call>",
    TOOLS,
  );
  assert.equal(file.kind === "call" && file.call.params.content, "a &amp; b");
});

Deno.test("`parseReply()` takes no call from a reasoning block a template opened, even as a dialect", () => {
  const r = parseReply(
    'Maybe <tool_call>{"name": "delete_file", "arguments": {"path": "src"}}</tool_call>.\n</think>\nDone.',
    SPECS,
  );
  assert.equal(r.kind, "none");
});

Deno.test("`parseReply()` keeps a <think> line inside a file the call writes", () => {
  const content = "<think>\nplan\n</think>\nanswer";
  for (
    const reply of [
      `<tool_call>\n<write_to_file>\n<path>p.txt</path>\n<content>\n${content}\n</content>\n</write_to_file>\n</tool_call>`,
      `<tool_call>\n<function=write_to_file>\n<parameter=path>\np.txt\n</parameter>\n<parameter=content>\n${content}\n</parameter>\n</function>\n</tool_call>`,
    ]
  ) {
    const r = parseReply(reply, SPECS);
    assert.equal(r.kind === "call" && r.call.params.content, content, reply);
  }
});

Deno.test("README and `debug parse --help` name every dialect id", async () => {
  const { DIALECTS } = await import("../../../core/protocol/dialects.ts");
  const readme = await Deno.readTextFile(new URL("../../../README.md", import.meta.url));
  const section = readme.slice(readme.indexOf("## Any model"));
  const debug = await Deno.readTextFile(
    new URL("../../../cli/commands/debug.ts", import.meta.url),
  );
  for (const id of DIALECTS) {
    assert.ok(section.includes(`\`${id}\``), `README lacks ${id}`);
    if (id !== "canonical") assert.match(debug, new RegExp(`^  ${id} `, "m"), `help lacks ${id}`);
  }
});

Deno.test("`CallScanner` names the tool of a dialect call on the live line while it streams", async () => {
  const byId = new Map((await load()).map((c) => [c.id, c]));
  const cases: [string, string][] = [
    ["hermes_2", "write_to_file"],
    ["qwen3_coder_1", "execute_command"],
    ["anthropic_0", "read_file"],
    ["mistral_3", "search_files"],
    ["bare_xml_4", "list_files"],
    ["kimi_0", "read_file"],
  ];
  for (const [id, tool] of cases) {
    const got = stream(randomChunks(byId.get(id)!.input, 2), SPECS);
    assert.deepEqual(got.calls, [tool], id);
  }
});
