import type { IncomingMessage } from "node:http";
import type { PrincipalResolver } from "@gw/auth";

const KEY_PATH = /^\/api\/v1\/keys\/([0-9a-f]{64})(?:[/?#]|$)/;
/** A management key's revocation (DELETE) or rotation (POST …/rotate) ends the named key's secret. */
const MANAGEMENT_KEY_PATH = /^\/api\/v1\/management-keys\/([0-9a-f]{64})(\/rotate)?(?:[?#]|$)/;

/**
 * The edge that forwards a successful PATCH or DELETE of a key drops its cached principal before the
 * client sees the answer, so its very next request is judged on the new state. Other edges learn of
 * the change from the key-change event.
 */
export function dropChangedKey(principals: PrincipalResolver) {
  return (request: IncomingMessage, status: number): void => {
    if (status < 200 || status >= 300) return;
    const hash = changedHash(request.method, request.url ?? "");
    if (hash) principals.invalidate(hash);
  };
}

function changedHash(method: string | undefined, url: string): string | undefined {
  if (method === "PATCH") return KEY_PATH.exec(url)?.[1];
  if (method === "DELETE") {
    const managed = MANAGEMENT_KEY_PATH.exec(url);
    if (managed) return managed[2] === undefined ? managed[1] : undefined;
    return KEY_PATH.exec(url)?.[1];
  }
  if (method === "POST") {
    const managed = MANAGEMENT_KEY_PATH.exec(url);
    return managed?.[2] === undefined ? undefined : managed[1];
  }
  return undefined;
}
