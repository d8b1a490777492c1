/**
 * What the model is told about edit blocks and, in the copy/paste bridge,
 * about the bridge's directives. Appended to the system prompt.
 *
 * @module
 */

/** The edit-block format, for any provider with `--edit-format blocks`. */
export const EDIT_BLOCKS_DOC = `# Edit blocks
Besides tool calls you may change files with edit blocks. A reply may hold several; they are applied in order as one change, all or nothing, after the user approves it. Each marker must be on a line of its own:

<<<FILE: path/to/file>>>
the complete new content of an existing file
<<<END>>>

<<<FILE: [NEW] path/to/new_file>>>
the content of a new file (missing folders are created)
<<<END>>>

<<<DIFF: path/to/file>>>
@@ -12,3 +12,4 @@
 context line (starts with a space)
-removed line
+added line
 context line
<<<END>>>

<<<DELETE: path/to/file>>>

Rules:
- Paths are relative to the working directory. Bodies are raw text: no escaping, no \`\`\` fences inside a block.
- In a DIFF, give each hunk a few unchanged context lines so its place is unique; line numbers are only hints. Several hunks may follow each other. The context and removed lines must match the file exactly.
- Prefer DIFF for small changes to big files, FILE for small files or rewrites.
- A reply with edit blocks makes no tool call; the result of applying them comes back in the next message. If a block fails, nothing is written: send all the blocks again, corrected.`;

/** The bridge's extra rules: browse/edit modes, file requests, long answers. */
export const BRIDGE_DOC = `# Working through copy and paste
You are talking to minoc through a web chat: the user pastes minoc's messages to you and your answers back to minoc. Every message from minoc holds the whole conversation so far. Answer with exactly one action per reply: edit blocks, one tool call, a directive below, or a final answer in plain text.
- In browse mode you see only a summary of the project (its files and their exported names or headings). Ask for files with <<<REQUEST_FILE: path>>> lines, or a list:
<<<REQUEST_FILES>>>
src/a.ts
src/b.ts
<<<END>>>
- Write <<<SWITCH_MODE: edit>>> (a line of its own) to receive the full contents of the project's files in the next message; <<<SWITCH_MODE: browse>>> goes back to the summary.
- Line numbers shown in read results are not part of the files.
- If your answer would be too long, stop after a complete block and end it with a list of the files still to come; minoc asks you to continue and joins the parts:
<<<CONTINUE>>>
src/c.ts
src/d.ts
<<<END>>>
- A message that starts with "Part N/M" and says more parts follow: answer only "ok" until the last part arrives.`;
