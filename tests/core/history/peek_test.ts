import assert from "node:assert/strict";
import { join } from "node:path";
import { defaultMetadata, parseSessionText, renderSession } from "../../../core/history/format.ts";
import { endIsWhole, firstLine } from "../../../core/history/peek.ts";
import type { SessionFile } from "../../../interfaces/history.ts";

function session(messages: number, systemPrompt = "You are minoc."): SessionFile {
  return {
    sessionId: "20261122-100000-abcdef",
    timestamp: "2026-11-22T10:00:00.000Z",
    model: "m",
    systemPrompt,
    projectPath: "/p",
    mode: "agent",
    messages: Array.from({ length: messages }, (_, i) => ({
      role: i % 2 ? "assistant" : "user",
      content: `message ${i} ` + "x".repeat(i * 37),
      timestamp: "2026-11-22T10:00:01.000Z",
    })),
    metadata: { ...defaultMetadata(), turns: messages },
  };
}

/** Whether reading the text needs a repair; null when it cannot be read at all (cut in the header). */
function repairedOrLost(text: string): boolean | null {
  try {
    return parseSessionText(text).repaired;
  } catch {
    return null;
  }
}

Deno.test("`endIsWhole()` is true only for files that parse without repair, at every cut of the last write", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_peek_" });
  try {
    const path = join(dir, "s.json");
    for (const count of [0, 1, 5]) {
      const whole = renderSession(session(count));
      await Deno.writeTextFile(path, whole);
      assert.equal(endIsWhole(path), true, `${count} messages, whole`);
      // The last write is the last message line and the tail (or the header and tail).
      const before = count === 0 ? 0 : renderSession(session(count - 1)).lastIndexOf("\n],");
      for (let cut = before; cut < whole.length; cut++) {
        const text = whole.slice(0, cut);
        await Deno.writeTextFile(path, text);
        const verdict = endIsWhole(path);
        const intact = text.trimEnd() === whole.trimEnd();
        assert.equal(
          verdict,
          intact,
          `${count} messages cut at ${cut}: ${JSON.stringify(text.slice(-30))}`,
        );
        if (!intact) assert.notEqual(repairedOrLost(text), false);
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("`endIsWhole()` catches a new tail written over part of an old one", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_peek_" });
  try {
    const path = join(dir, "s.json");
    const old = renderSession(session(2));
    const next = renderSession({ ...session(2), metadata: { ...defaultMetadata(), turns: 12345 } });
    const at = old.lastIndexOf("\n],");
    for (let cut = at + 1; cut < old.length - 1; cut++) {
      const mixed = next.slice(0, cut) + old.slice(cut);
      if (mixed === old) continue;
      await Deno.writeTextFile(path, mixed);
      let valid = true;
      try {
        JSON.parse(mixed);
      } catch {
        valid = false;
      }
      assert.equal(endIsWhole(path), valid, `cut at ${cut}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("`endIsWhole()` leaves the judgement to a full read when the end is longer than it looks at; `firstLine()` reads a long header", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_peek_" });
  try {
    const path = join(dir, "s.json");
    await Deno.writeTextFile(path, renderSession(session(0, "p".repeat(300_000))));
    assert.equal(endIsWhole(path), true, "a 300 KB header is read back to its start");
    const long = session(0, "p".repeat(1_200_000));
    await Deno.writeTextFile(path, renderSession(long));
    assert.equal(endIsWhole(path), false, "past 1 MB the caller reads the file");
    const line = firstLine(path);
    assert.ok(line?.endsWith('"messages":['));
    assert.equal(line?.length, renderSession(long).indexOf("\n"));
    await Deno.writeTextFile(path, "no newline at all");
    assert.equal(firstLine(path), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
