/**
 * The chat's `/provider` and `/paste` commands (the copy/paste bridge).
 *
 * @module
 */
import type { CliIO } from "../io.ts";
import type { AgentSession } from "../session.ts";
import type { Palette } from "../ui/colors.ts";
import { visible } from "../../core/protocol/visible.ts";

/** `/provider` shows the provider in use; `/provider bridge|openai` switches. */
export async function slashProvider(
  arg: string,
  session: AgentSession,
  io: CliIO,
  c: Palette,
): Promise<void> {
  if (arg === "") {
    io.out(c.dim(`provider: ${session.providerName()} (switch with /provider bridge|openai)\n`));
    return;
  }
  try {
    await session.setProvider(arg);
  } catch (e) {
    io.out(c.yellow(`${visible((e as Error).message)}\n`));
    return;
  }
  const note = arg === "bridge"
    ? "; each request is copied for you to paste into a web chat, edit blocks are on"
    : "";
  io.out(c.dim(`provider: ${arg}${note}\n`));
}

/** `/paste` outside a bridge request: says where it works. */
export function slashPaste(session: AgentSession, io: CliIO, c: Palette): void {
  const how = session.providerName() === "bridge"
    ? "type a request first; when minoc waits for the chat's answer,"
    : "switch to the bridge with /provider bridge; when minoc waits for the chat's answer,";
  io.out(
    c.dim(
      `/paste reads the chat's answer from the clipboard: ${how} type /paste (or press Enter)\n`,
    ),
  );
}
