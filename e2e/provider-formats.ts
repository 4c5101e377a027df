import {
  type FakeServer,
  startFakeAnthropic,
  startFakeExa,
  startFakeGemini,
  startFakeOpenAi,
} from "@gw/fake-providers";
import type { Plane } from "./cloud-gateway.js";
import { type RunningGateway, startEmbedded, startSplit } from "./cloud-planes.js";

// The embedded gateway in front of the three strict fakes of the wire formats a chat model can be
// served in (OpenAI, Anthropic Messages, Gemini generateContent), each checking its key, so a client
// suite can drive one model per format instead of only the demo provider. On either plane: the
// embedded default, or the split plane's four processes (cloud-planes.ts).

const KEYS = {
  openai: "sk-e2e-formats-openai-0123",
  anthropic: "sk-ant-e2e-formats-0123",
  gemini: "e2e-formats-gemini-0123",
  exa: "e2e-formats-exa-0123",
};

export interface FormatsGateway extends RunningGateway {
  readonly fakes: { openai: FakeServer; anthropic: FakeServer; gemini: FakeServer };
  /**
   * The operator's search API (an Exa-compatible fake) behind the web plugin: the bundled catalogue
   * marks none of the three formats' models with native search, so their `web` plugin searches here.
   */
  readonly search: FakeServer;
}

export async function startFormatsGateway(plane: Plane = "embedded"): Promise<FormatsGateway> {
  const fakes = {
    openai: await startFakeOpenAi({ apiKey: KEYS.openai }),
    anthropic: await startFakeAnthropic({ apiKey: KEYS.anthropic }),
    gemini: await startFakeGemini({ apiKey: KEYS.gemini }),
  };
  const search = await startFakeExa({ apiKey: KEYS.exa });
  const providers = {
    LOG_LEVEL: "warn",
    OPENAI_API_KEY: KEYS.openai,
    OPENAI_BASE_URL: fakes.openai.baseUrl,
    ANTHROPIC_API_KEY: KEYS.anthropic,
    ANTHROPIC_BASE_URL: fakes.anthropic.baseUrl,
    GEMINI_API_KEY: KEYS.gemini,
    GEMINI_BASE_URL: fakes.gemini.baseUrl,
    WEB_SEARCH_URL: search.baseUrl,
    WEB_SEARCH_API_KEY: KEYS.exa,
    // Only the fakes: nothing from the developer's shell may reach a real service.
    VERTEX_CREDENTIALS: "",
    VERTEX_ACCESS_TOKEN: "",
    AWS_ACCESS_KEY_ID: "",
    AWS_SECRET_ACCESS_KEY: "",
    AWS_PROFILE: "",
    AZURE_OPENAI_API_KEY: "",
    AZURE_OPENAI_BASE_URL: "",
  };
  const running = plane === "embedded" ? await startEmbedded(providers) : await startSplit(providers);
  return {
    ...running,
    fakes,
    search,
    async stop() {
      await running.stop();
      await Promise.all([...Object.values(fakes), search].map((fake) => fake.close()));
    },
  };
}
