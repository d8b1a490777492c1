/**
 * The trust prompt: on first use of a project whose `.minoc/config/` sets
 * fields only a trusted folder may set (where the key goes, what runs), the
 * user sees the values and decides. Only used when stdin and stdout are a
 * terminal.
 *
 * @module
 */
import type { TrustQuestion } from "../../core/config/project_trust.ts";
import { visible } from "../../core/protocol/visible.ts";

/** The text above the question: the folder, the file and every value it sets. */
export function trustText(q: TrustQuestion): string {
  const lines = [
    `This folder's configuration wants to choose where your API key and conversation go, or what runs:`,
    `  folder: ${visible(q.folder)}`,
    `  file:   ${visible(q.file)}`,
    ...Object.entries(q.fields).map(([k, v]) => `  ${k}: ${visible(JSON.stringify(v))}`),
    "Only trust folders whose configuration you wrote or checked.",
  ];
  return lines.join("\n") + "\n";
}

/** Asks in the terminal; true when the user trusts the folder. */
export async function askTrust(
  q: TrustQuestion,
  write: (text: string) => void,
): Promise<boolean> {
  write(trustText(q));
  const { default: select } = await import("@inquirer/select");
  try {
    return await select<boolean>({
      message: "Trust this folder?",
      choices: [
        { name: "No: ignore these values (the home configuration applies)", value: false },
        { name: "Yes: trust this folder from now on", value: true },
      ],
    });
  } catch {
    return false;
  }
}
