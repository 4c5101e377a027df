// Which LiteLLM entries are the same open-weight model on different hosts. LiteLLM keys each host's own
// name (`groq/llama-3.3-70b-versatile`, `cerebras/llama-3.3-70b`, ...); this table is the one place that
// says they are one model, under OpenRouter's id for it (openrouter.ai/models, the id users copy). One
// key per host and model: where a host lists several builds (Turbo, FP8, -basic) the table names the one
// it serves as the model. `context` is the model card's window, used only where a host's entry has none
// (Together's older entries).

const LLAMA = 131_072;

/** @type {ReadonlyArray<{ id: string; name: string; context: number; keys: readonly string[] }>} */
export const OPEN_HOSTS = [
  m("meta-llama/llama-3.3-70b-instruct", "Meta: Llama 3.3 70B Instruct", LLAMA, [
    "groq/llama-3.3-70b-versatile",
    "together_ai/meta-llama/Llama-3.3-70B-Instruct-Turbo",
    "fireworks_ai/accounts/fireworks/models/llama-v3p3-70b-instruct",
    "deepinfra/meta-llama/Llama-3.3-70B-Instruct",
    "cerebras/llama-3.3-70b",
  ]),
  m("meta-llama/llama-3.1-8b-instruct", "Meta: Llama 3.1 8B Instruct", LLAMA, [
    "groq/llama-3.1-8b-instant",
    "together_ai/meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo",
    "fireworks_ai/accounts/fireworks/models/llama-v3p1-8b-instruct",
    "deepinfra/meta-llama/Meta-Llama-3.1-8B-Instruct",
    "cerebras/llama3.1-8b",
  ]),
  m("meta-llama/llama-3.1-70b-instruct", "Meta: Llama 3.1 70B Instruct", LLAMA, [
    "together_ai/meta-llama/Meta-Llama-3.1-70B-Instruct-Turbo",
    "fireworks_ai/accounts/fireworks/models/llama-v3p1-70b-instruct",
    "deepinfra/meta-llama/Meta-Llama-3.1-70B-Instruct",
    "cerebras/llama3.1-70b",
  ]),
  m("meta-llama/llama-3.1-405b-instruct", "Meta: Llama 3.1 405B Instruct", LLAMA, [
    "together_ai/meta-llama/Meta-Llama-3.1-405B-Instruct-Turbo",
    "fireworks_ai/accounts/fireworks/models/llama-v3p1-405b-instruct",
  ]),
  m("meta-llama/llama-3.2-3b-instruct", "Meta: Llama 3.2 3B Instruct", LLAMA, [
    "fireworks_ai/accounts/fireworks/models/llama-v3p2-3b-instruct",
    "deepinfra/meta-llama/Llama-3.2-3B-Instruct",
  ]),
  m("meta-llama/llama-4-maverick", "Meta: Llama 4 Maverick", 1_048_576, [
    "groq/meta-llama/llama-4-maverick-17b-128e-instruct",
    "together_ai/meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8",
    "fireworks_ai/accounts/fireworks/models/llama4-maverick-instruct-basic",
    "deepinfra/meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8",
  ]),
  m("meta-llama/llama-4-scout", "Meta: Llama 4 Scout", 327_680, [
    "groq/meta-llama/llama-4-scout-17b-16e-instruct",
    "together_ai/meta-llama/Llama-4-Scout-17B-16E-Instruct",
    "fireworks_ai/accounts/fireworks/models/llama4-scout-instruct-basic",
    "deepinfra/meta-llama/Llama-4-Scout-17B-16E-Instruct",
  ]),
  m("meta-llama/llama-guard-4-12b", "Meta: Llama Guard 4 12B", 163_840, [
    "groq/meta-llama/llama-guard-4-12b",
    "deepinfra/meta-llama/Llama-Guard-4-12B",
  ]),
  m("openai/gpt-oss-120b", "OpenAI: gpt-oss-120b", LLAMA, [
    "groq/openai/gpt-oss-120b",
    "together_ai/openai/gpt-oss-120b",
    "fireworks_ai/accounts/fireworks/models/gpt-oss-120b",
    "deepinfra/openai/gpt-oss-120b",
    "cerebras/gpt-oss-120b",
  ]),
  m("openai/gpt-oss-20b", "OpenAI: gpt-oss-20b", LLAMA, [
    "groq/openai/gpt-oss-20b",
    "together_ai/openai/gpt-oss-20b",
    "fireworks_ai/accounts/fireworks/models/gpt-oss-20b",
    "deepinfra/openai/gpt-oss-20b",
  ]),
  m("qwen/qwen3-32b", "Qwen: Qwen3 32B", 131_072, [
    "groq/qwen/qwen3-32b",
    "fireworks_ai/accounts/fireworks/models/qwen3-32b",
    "deepinfra/Qwen/Qwen3-32B",
    "cerebras/qwen-3-32b",
  ]),
  m("qwen/qwen3-14b", "Qwen: Qwen3 14B", 40_960, [
    "fireworks_ai/accounts/fireworks/models/qwen3-14b",
    "deepinfra/Qwen/Qwen3-14B",
  ]),
  m("qwen/qwen3-30b-a3b", "Qwen: Qwen3 30B A3B", 40_960, [
    "fireworks_ai/accounts/fireworks/models/qwen3-30b-a3b",
    "deepinfra/Qwen/Qwen3-30B-A3B",
  ]),
  m("qwen/qwen3-235b-a22b", "Qwen: Qwen3 235B A22B", 40_960, [
    "together_ai/Qwen/Qwen3-235B-A22B-fp8-tput",
    "fireworks_ai/accounts/fireworks/models/qwen3-235b-a22b",
    "deepinfra/Qwen/Qwen3-235B-A22B",
  ]),
  m("qwen/qwen3-235b-a22b-2507", "Qwen: Qwen3 235B A22B Instruct 2507", 262_144, [
    "together_ai/Qwen/Qwen3-235B-A22B-Instruct-2507-tput",
    "fireworks_ai/accounts/fireworks/models/qwen3-235b-a22b-instruct-2507",
    "deepinfra/Qwen/Qwen3-235B-A22B-Instruct-2507",
  ]),
  m("qwen/qwen3-235b-a22b-thinking-2507", "Qwen: Qwen3 235B A22B Thinking 2507", 262_144, [
    "together_ai/Qwen/Qwen3-235B-A22B-Thinking-2507",
    "fireworks_ai/accounts/fireworks/models/qwen3-235b-a22b-thinking-2507",
    "deepinfra/Qwen/Qwen3-235B-A22B-Thinking-2507",
  ]),
  m("qwen/qwen3-coder", "Qwen: Qwen3 Coder 480B A35B", 262_144, [
    "together_ai/Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8",
    "fireworks_ai/accounts/fireworks/models/qwen3-coder-480b-a35b-instruct",
    "deepinfra/Qwen/Qwen3-Coder-480B-A35B-Instruct",
  ]),
  m("qwen/qwen3-next-80b-a3b-instruct", "Qwen: Qwen3 Next 80B A3B Instruct", 262_144, [
    "together_ai/Qwen/Qwen3-Next-80B-A3B-Instruct",
    "deepinfra/Qwen/Qwen3-Next-80B-A3B-Instruct",
  ]),
  m("qwen/qwen3-next-80b-a3b-thinking", "Qwen: Qwen3 Next 80B A3B Thinking", 262_144, [
    "together_ai/Qwen/Qwen3-Next-80B-A3B-Thinking",
    "deepinfra/Qwen/Qwen3-Next-80B-A3B-Thinking",
  ]),
  m("qwen/qwq-32b", "Qwen: QwQ 32B", 131_072, [
    "fireworks_ai/accounts/fireworks/models/qwq-32b",
    "deepinfra/Qwen/QwQ-32B",
  ]),
  m("qwen/qwen-2.5-72b-instruct", "Qwen2.5 72B Instruct", 32_768, [
    "fireworks_ai/accounts/fireworks/models/qwen2p5-72b-instruct",
    "deepinfra/Qwen/Qwen2.5-72B-Instruct",
  ]),
  m("qwen/qwen-2.5-7b-instruct", "Qwen2.5 7B Instruct", 32_768, [
    "fireworks_ai/accounts/fireworks/models/qwen2p5-7b-instruct",
    "deepinfra/Qwen/Qwen2.5-7B-Instruct",
  ]),
  m("deepseek/deepseek-chat", "DeepSeek: DeepSeek V3", 65_536, [
    "together_ai/deepseek-ai/DeepSeek-V3",
    "fireworks_ai/accounts/fireworks/models/deepseek-v3",
    "deepinfra/deepseek-ai/DeepSeek-V3",
  ]),
  m("deepseek/deepseek-chat-v3-0324", "DeepSeek: DeepSeek V3 0324", 163_840, [
    "fireworks_ai/accounts/fireworks/models/deepseek-v3-0324",
    "deepinfra/deepseek-ai/DeepSeek-V3-0324",
  ]),
  m("deepseek/deepseek-chat-v3.1", "DeepSeek: DeepSeek V3.1", 163_840, [
    "together_ai/deepseek-ai/DeepSeek-V3.1",
    "fireworks_ai/accounts/fireworks/models/deepseek-v3p1",
    "deepinfra/deepseek-ai/DeepSeek-V3.1",
  ]),
  m("deepseek/deepseek-r1", "DeepSeek: R1", 163_840, [
    "together_ai/deepseek-ai/DeepSeek-R1",
    "fireworks_ai/accounts/fireworks/models/deepseek-r1",
    "deepinfra/deepseek-ai/DeepSeek-R1",
  ]),
  m("deepseek/deepseek-r1-0528", "DeepSeek: R1 0528", 163_840, [
    "together_ai/deepseek-ai/DeepSeek-R1-0528-tput",
    "fireworks_ai/accounts/fireworks/models/deepseek-r1-0528",
    "deepinfra/deepseek-ai/DeepSeek-R1-0528",
  ]),
  m("deepseek/deepseek-r1-distill-llama-70b", "DeepSeek: R1 Distill Llama 70B", LLAMA, [
    "fireworks_ai/accounts/fireworks/models/deepseek-r1-distill-llama-70b",
    "deepinfra/deepseek-ai/DeepSeek-R1-Distill-Llama-70B",
  ]),
  m("deepseek/deepseek-r1-distill-qwen-32b", "DeepSeek: R1 Distill Qwen 32B", LLAMA, [
    "fireworks_ai/accounts/fireworks/models/deepseek-r1-distill-qwen-32b",
    "deepinfra/deepseek-ai/DeepSeek-R1-Distill-Qwen-32B",
  ]),
  m("moonshotai/kimi-k2", "MoonshotAI: Kimi K2", 131_072, [
    "together_ai/moonshotai/Kimi-K2-Instruct",
    "fireworks_ai/accounts/fireworks/models/kimi-k2-instruct",
    "deepinfra/moonshotai/Kimi-K2-Instruct",
  ]),
  m("moonshotai/kimi-k2-0905", "MoonshotAI: Kimi K2 0905", 262_144, [
    "groq/moonshotai/kimi-k2-instruct-0905",
    "together_ai/moonshotai/Kimi-K2-Instruct-0905",
    "fireworks_ai/accounts/fireworks/models/kimi-k2-instruct-0905",
    "deepinfra/moonshotai/Kimi-K2-Instruct-0905",
  ]),
  m("z-ai/glm-4.5", "Z.AI: GLM 4.5", 131_072, [
    "fireworks_ai/accounts/fireworks/models/glm-4p5",
    "deepinfra/zai-org/GLM-4.5",
  ]),
  m("z-ai/glm-4.5-air", "Z.AI: GLM 4.5 Air", 128_000, [
    "together_ai/zai-org/GLM-4.5-Air-FP8",
    "fireworks_ai/accounts/fireworks/models/glm-4p5-air",
  ]),
  m("z-ai/glm-4.6", "Z.AI: GLM 4.6", 202_800, [
    "together_ai/zai-org/GLM-4.6",
    "fireworks_ai/accounts/fireworks/models/glm-4p6",
    "cerebras/zai-glm-4.6",
  ]),
  m("z-ai/glm-4.7", "Z.AI: GLM 4.7", 202_800, [
    "together_ai/zai-org/GLM-4.7",
    "fireworks_ai/accounts/fireworks/models/glm-4p7",
    "cerebras/zai-glm-4.7",
  ]),
  m("google/gemma-3-27b-it", "Google: Gemma 3 27B", 131_072, [
    "fireworks_ai/accounts/fireworks/models/gemma-3-27b-it",
    "deepinfra/google/gemma-3-27b-it",
  ]),
  m("mistralai/mixtral-8x7b-instruct", "Mistral: Mixtral 8x7B Instruct", 32_768, [
    "mistral/open-mixtral-8x7b",
    "together_ai/mistralai/Mixtral-8x7B-Instruct-v0.1",
    "fireworks_ai/accounts/fireworks/models/mixtral-8x7b-instruct",
    "deepinfra/mistralai/Mixtral-8x7B-Instruct-v0.1",
  ]),
  m("mistralai/mixtral-8x22b-instruct", "Mistral: Mixtral 8x22B Instruct", 65_536, [
    "mistral/open-mixtral-8x22b",
    "fireworks_ai/accounts/fireworks/models/mixtral-8x22b-instruct",
  ]),
  m("mistralai/mistral-nemo", "Mistral: Mistral Nemo", 128_000, [
    "mistral/open-mistral-nemo",
    "fireworks_ai/accounts/fireworks/models/mistral-nemo-instruct-2407",
    "deepinfra/mistralai/Mistral-Nemo-Instruct-2407",
  ]),
  m("mistralai/mistral-7b-instruct", "Mistral: Mistral 7B Instruct", 32_768, [
    "mistral/open-mistral-7b",
    "fireworks_ai/accounts/fireworks/models/mistral-7b-instruct-v3",
  ]),
  m("mistralai/mistral-small-24b-instruct-2501", "Mistral: Mistral Small 3", 32_768, [
    "fireworks_ai/accounts/fireworks/models/mistral-small-24b-instruct-2501",
    "deepinfra/mistralai/Mistral-Small-24B-Instruct-2501",
  ]),
  m("mistralai/mistral-small-3.2-24b-instruct", "Mistral: Mistral Small 3.2 24B", 131_072, [
    "mistral/mistral-small-3-2-2506",
    "deepinfra/mistralai/Mistral-Small-3.2-24B-Instruct-2506",
  ]),
  m("mistralai/mistral-large-2512", "Mistral: Mistral Large 3", 262_144, [
    "mistral/mistral-large-2512",
    "fireworks_ai/accounts/fireworks/models/mistral-large-3-fp8",
  ]),
  m("mistralai/devstral-small-2505", "Mistral: Devstral Small 2505", 131_072, [
    "mistral/devstral-small-2505",
    "fireworks_ai/accounts/fireworks/models/devstral-small-2505",
  ]),
  m("nvidia/nemotron-nano-9b-v2", "NVIDIA: Nemotron Nano 9B V2", 131_072, [
    "fireworks_ai/accounts/fireworks/models/nvidia-nemotron-nano-9b-v2",
    "deepinfra/nvidia/NVIDIA-Nemotron-Nano-9B-v2",
  ]),
  // Mistral's own models, on Mistral only: their hosts' entries are Mistral's API.
  m("mistralai/mistral-medium-3.1", "Mistral: Mistral Medium 3.1", 131_072, [
    "mistral/mistral-medium-3-1-2508",
  ]),
  m("mistralai/magistral-medium-2506", "Mistral: Magistral Medium 2506", 40_000, [
    "mistral/magistral-medium-2506",
  ]),
  m("mistralai/magistral-small-2506", "Mistral: Magistral Small 2506", 40_000, [
    "mistral/magistral-small-2506",
  ]),
  m("mistralai/codestral-2508", "Mistral: Codestral 2508", 256_000, ["mistral/codestral-2508"]),
  m("mistralai/devstral-medium", "Mistral: Devstral Medium", 128_000, ["mistral/devstral-medium-2507"]),
  m("mistralai/pixtral-large-2411", "Mistral: Pixtral Large 2411", 128_000, ["mistral/pixtral-large-2411"]),
  m("mistralai/ministral-8b", "Mistral: Ministral 8B", 262_144, ["mistral/ministral-8b-2512"]),
  m("microsoft/phi-4", "Microsoft: Phi 4", 16_384, ["deepinfra/microsoft/phi-4"]),
];

function m(id, name, context, keys) {
  return { id, name, context, keys };
}
