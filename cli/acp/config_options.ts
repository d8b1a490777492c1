/**
 * The session's settings an editor can change (`session/set_config_option`):
 * the model — the current one and those configured in `models.json` (their
 * quirks, parameters, instructions and context window come with them, as
 * with `/model` in the chat) — and the mode (agent or plan), which is also
 * offered through `session/set_mode`.
 *
 * @example
 * ```ts
 * const options = await configOptions(session.agent);
 * ```
 * @module
 */
import { RequestError, type SessionConfigOption } from "@agentclientprotocol/sdk";
import { configuredModels } from "../../core/config/load.ts";
import type { AgentSession } from "../session.ts";

/** The model and mode selectors with their current values. */
export async function configOptions(agent: AgentSession): Promise<SessionConfigOption[]> {
  const current = agent.settings().params.model;
  const listed = await configuredModels(agent.homeDir, agent.cwd);
  const names = listed.ok ? listed.models : [];
  const models = names.includes(current) ? names : [current, ...names];
  return [
    {
      id: "model",
      name: "Model",
      category: "model",
      type: "select",
      currentValue: current,
      options: models.map((m) => ({ value: m, name: m })),
    },
    {
      id: "mode",
      name: "Mode",
      category: "mode",
      type: "select",
      currentValue: agent.mode(),
      options: [
        {
          value: "agent",
          name: "Agent",
          description: "Reads, edits and runs commands, asking first",
        },
        { value: "plan", name: "Plan", description: "Read-only tools; the answer is a plan" },
      ],
    },
  ];
}

/** Checks a `session/set_config_option` value against the offered ones. */
export async function checkConfigValue(
  agent: AgentSession,
  configId: string,
  value: unknown,
): Promise<string> {
  const option = (await configOptions(agent)).find((o) => o.id === configId);
  if (!option) {
    throw RequestError.invalidParams(
      { field: "configId" },
      `configId "${configId}" is not an option: expected "model" or "mode"`,
    );
  }
  const offered = option.type === "select"
    ? option.options.flatMap((o) => "value" in o ? [o.value] : o.options.map((x) => x.value))
    : [];
  if (typeof value !== "string" || !offered.includes(value)) {
    throw RequestError.invalidParams(
      { field: "value" },
      `value "${String(value)}" is not offered for "${configId}": expected one of ${
        offered.map((v) => `"${v}"`).join(", ")
      }`,
    );
  }
  return value;
}
