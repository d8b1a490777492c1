/**
 * One 1 MB reply per tool-call dialect (the list in `core/protocol/dialects.ts`),
 * each writing the same file content, for the scanner benchmark
 * (`bench/xml_bench.ts`): every dialect is timed whole and in 16-byte chunks.
 *
 * @module
 */

/** A reply of about `size` characters: prose, then one call with code-like content. */
export function benchReply(size = 1024 * 1024): string {
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    const line = i % 3 === 0
      ? `  <li class="item-${i}">{a < b && "</content>"} &amp; ${i}</li>`
      : `  const v${i} = items.filter((x) => x.size <= ${i}).map((x) => x.name); // 日本語`;
    lines.push(line);
    length += line.length + 1;
  }
  return "Writing the file now.\n<tool_call>\n<write_to_file>\n<path>src/big.tsx</path>\n" +
    `<content>\n${lines.join("\n")}\n</content>\n</write_to_file>\n</tool_call>\n`;
}

/** The content of {@link benchReply}'s call. */
export function benchContent(size = 1024 * 1024): string {
  const reply = benchReply(size);
  return reply.slice(reply.indexOf("<content>\n") + 10, reply.lastIndexOf("\n</content>"));
}

const PATH = "src/big.tsx";

/** Each dialect's reply around `content` (the write_to_file call of the benchmark). */
const BUILDERS: Record<string, (content: string) => string> = {
  canonical: () => benchReply(),
  hermes_json: (c) =>
    `Writing the file now.\n<tool_call>\n${
      json({ name: "write_to_file", arguments: { path: PATH, content: c } })
    }\n</tool_call>\n`,
  qwen3_coder: (c) =>
    `<tool_call>\n<function=write_to_file>\n<parameter=path>\n${PATH}\n</parameter>\n` +
    `<parameter=content>\n${c}\n</parameter>\n</function>\n</tool_call>\n`,
  llama_function: (c) => `<function=write_to_file>${json({ path: PATH, content: c })}</function>`,
  anthropic_xml: (c) =>
    `<function_calls>\n<invoke name="write_to_file">\n<parameter name="path">${PATH}</parameter>\n` +
    `<parameter name="content">${c}</parameter>\n</invoke>\n</function_calls>`,
  glm4: (c) =>
    `<tool_call>write_to_file\n<arg_key>path</arg_key>\n<arg_value>${PATH}</arg_value>\n` +
    `<arg_key>content</arg_key>\n<arg_value>${c}</arg_value>\n</tool_call>`,
  mistral: (c) => `[TOOL_CALLS]${json([call("arguments", c)])}`,
  llama3_json: (c) => `<|python_tag|>${json(call("parameters", c))}`,
  granite: (c) => `<|tool_call|>${json([call("arguments", c)])}`,
  internlm: (c) =>
    `Writing it.<|action_start|><|plugin|>\n${json(call("parameters", c))}<|action_end|>`,
  kimi_k2: (c) =>
    "<|tool_calls_section_begin|><|tool_call_begin|>functions.write_to_file:0" +
    `<|tool_call_argument_begin|>${
      json({ path: PATH, content: c })
    }<|tool_call_end|><|tool_calls_section_end|>`,
  deepseek: (c) =>
    "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>write_to_file\n```json\n" +
    `${json({ path: PATH, content: c })}\n\`\`\`<｜tool▁call▁end｜><｜tool▁calls▁end｜>`,
  phi4_functools: (c) => `functools[${json(call("arguments", c))}]`,
  pythonic: (c) => `[write_to_file(path="${PATH}", content=${json(c)})]`,
  json_fence: (c) => `Here it is.\n\`\`\`json\n${json(call("arguments", c))}\n\`\`\``,
  bare_json: (c) => json(call("parameters", c)),
  bare_xml: (c) =>
    `Let me do that.\n\n<write_to_file>\n<path>${PATH}</path>\n<content>\n${c}\n</content>\n</write_to_file>`,
};

function call(key: string, content: string): Record<string, unknown> {
  return { name: "write_to_file", [key]: { path: PATH, content } };
}

function json(value: unknown): string {
  return JSON.stringify(value);
}

/** The benchmark's reply written in `dialect` (an id of `DIALECTS`). */
export function replyIn(dialect: string, size = 1024 * 1024): string {
  const build = BUILDERS[dialect];
  if (build === undefined) throw new Error(`No benchmark reply for dialect "${dialect}"`);
  return build(benchContent(size));
}

/** The dialects that have a benchmark reply, in the order of `DIALECTS`. */
export const BENCH_DIALECTS: readonly string[] = Object.keys(BUILDERS);
