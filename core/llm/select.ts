/**
 * The one place that knows provider names and builds the matching provider.
 *
 * @example
 * ```ts
 * const provider = createProvider({
 *   baseURL: "https://api.openai.com/v1",
 *   apiKey: Deno.env.get("OPENAI_API_KEY") ?? "",
 *   params: { model: "gpt-4.1-mini" },
 * });
 * ```
 *
 * @module
 */
import type { LlmProvider, ModelParams } from "../../interfaces/agent.ts";
import { createOpenAIProvider } from "./openai.ts";
import { type BridgeOptions, createBridgeProvider } from "./bridge.ts";
import type { WireSink } from "./wire.ts";

/** What {@link createProvider} needs: the provider name and its connection. */
export interface ProviderConfig {
  /** Provider name; `openai` (any OpenAI-compatible server) when absent. */
  provider?: string;
  baseURL: string;
  apiKey: string;
  params: ModelParams;
  /** Longest wait for headers and between chunks. */
  timeoutMs?: number;
  /** Model quirks (models.json). */
  quirks?: {
    maxTokensField?: "max_tokens" | "max_completion_tokens";
    streamOptions?: boolean;
  };
  /** The copy/paste bridge's ports and files (provider `bridge`). */
  bridge?: BridgeOptions;
  /** Told every HTTP request and response as sent and received (debug mode). */
  wire?: WireSink;
}

const FACTORIES: Record<string, (config: ProviderConfig) => LlmProvider> = {
  openai: (config) =>
    createOpenAIProvider({
      baseURL: config.baseURL,
      apiKey: config.apiKey,
      params: config.params,
      timeoutMs: config.timeoutMs,
      maxTokensField: config.quirks?.maxTokensField,
      streamOptions: config.quirks?.streamOptions,
      wire: config.wire,
    }),
  bridge: (config) => {
    if (!config.bridge) throw new Error('Provider "bridge" needs its bridge options');
    return createBridgeProvider(config.bridge);
  },
};

/** Names {@link createProvider} accepts. */
export const PROVIDER_NAMES: readonly string[] = Object.freeze(Object.keys(FACTORIES));

/** Builds the provider named by `config.provider`; throws for an unknown name. */
export function createProvider(config: ProviderConfig): LlmProvider {
  const name = config.provider ?? "openai";
  const factory = Object.hasOwn(FACTORIES, name) ? FACTORIES[name] : undefined;
  if (!factory) {
    const known = PROVIDER_NAMES.map((n) => `"${n}"`).join(", ");
    throw new Error(`Unknown provider "${name}": expected one of ${known}`);
  }
  return factory(config);
}
