import * as grpc from "@grpc/grpc-js";
import { z } from "@gw/config";
import { describe, expect, it } from "vitest";
import { clientOptions, createAuthenticatedServer, serviceAuthEnv, serviceAuthSet } from "./service-auth.js";
import { generateServiceKeys, publicKeyList } from "./service-keys.js";

// The service-auth env variables as each app's config schema reads them, and the options a client
// or server gets with auth off.
const schema = z.object(serviceAuthEnv);
const keys = generateServiceKeys();

describe("serviceAuthEnv", () => {
  it("takes well-formed keys, and none at all (auth off is decided by the app)", () => {
    const env = {
      SERVICE_AUTH_PRIVATE_KEY: keys.edge.privateKey,
      SERVICE_AUTH_PUBLIC_KEYS: publicKeyList(keys),
    };
    expect(schema.parse(env)).toEqual(env);
    expect(schema.parse({})).toEqual({});
  });

  it("says what is wrong with a key without repeating it", () => {
    const result = schema.safeParse({
      SERVICE_AUTH_PRIVATE_KEY: "secret!",
      SERVICE_AUTH_PUBLIC_KEYS: "robot=x",
    });
    expect(result.success).toBe(false);
    const issues = result.error?.issues.map((issue) => [issue.path.join("."), issue.message]);
    expect(issues).toEqual([
      ["SERVICE_AUTH_PRIVATE_KEY", "the private key is not base64url"],
      [
        "SERVICE_AUTH_PUBLIC_KEYS",
        'unknown service "robot" (expected one of edge, keys, billing, generations)',
      ],
    ]);
    expect(JSON.stringify(result.error?.issues)).not.toContain("secret!");
  });
});

describe("auth off", () => {
  it("a client carries no token interceptor, a server checks no caller", () => {
    const auth = serviceAuthSet(keys);
    expect(clientOptions(undefined, "keys").interceptors).toHaveLength(2);
    expect(clientOptions(auth.edge.issuer, "keys").interceptors).toHaveLength(3);
    expect(createAuthenticatedServer(undefined)).toBeInstanceOf(grpc.Server);
  });
});
