import { describe, expect, it } from "vitest";
import { parseAzureDeployments } from "./azure-deployments.js";

describe("AZURE_OPENAI_DEPLOYMENTS", () => {
  const parse = (raw: string | undefined) => {
    const problems: string[] = [];
    const parsed = parseAzureDeployments(raw, problems);
    return { deployments: parsed.deployments, zdr: [...parsed.zeroDataRetention], problems };
  };

  it("maps models to deployments, a bare name or an object, and collects the zero-retention ones", () => {
    expect(
      parse(
        '{"gpt-4o":"prod-4o","gpt-4.1":{"deployment":"g41","zero_data_retention":true},"o3":{"zero_data_retention":true},"o1":{"deployment":"o1-eu","zero_data_retention":false}}',
      ),
    ).toEqual({
      deployments: { "gpt-4o": "prod-4o", "gpt-4.1": "g41", o3: "o3", o1: "o1-eu" },
      zdr: ["gpt-4.1", "o3"],
      problems: [],
    });
    expect(parse(undefined)).toEqual({ deployments: {}, zdr: [], problems: [] });
    expect(parse("  ")).toEqual({ deployments: {}, zdr: [], problems: [] });
  });

  it("names the variable and the entry of each problem, keeping the good entries", () => {
    const { deployments, zdr, problems } = parse(
      '{"a":"bad/name","b":{"zero_data_retention":"yes"},"c":{"deployment":7},"d":{"zdr":true},"e":[],"f":{"deployment":"ok","zero_data_retention":true}}',
    );
    expect(deployments).toEqual({ f: "ok" });
    expect(zdr).toEqual(["f"]);
    expect(problems).toEqual([
      'AZURE_OPENAI_DEPLOYMENTS: "a" needs a deployment name, or {"deployment": "name", "zero_data_retention": true}',
      'AZURE_OPENAI_DEPLOYMENTS: "b" zero_data_retention must be true or false',
      'AZURE_OPENAI_DEPLOYMENTS: "c" needs a deployment name of letters, digits, . _ - (at most 64)',
      'AZURE_OPENAI_DEPLOYMENTS: "d" has unknown field(s) zdr: needs a deployment name, or {"deployment": "name", "zero_data_retention": true}',
      'AZURE_OPENAI_DEPLOYMENTS: "e" needs a deployment name, or {"deployment": "name", "zero_data_retention": true}',
    ]);
    expect(parse("{").problems).toEqual([expect.stringMatching(/^AZURE_OPENAI_DEPLOYMENTS: not JSON/)]);
    expect(parse('"x"').problems).toEqual([
      expect.stringMatching(/^AZURE_OPENAI_DEPLOYMENTS: expected a JSON object/),
    ]);
  });
});
