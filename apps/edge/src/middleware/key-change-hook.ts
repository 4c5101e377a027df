import type { IncomingMessage } from "node:http";
import type { PrincipalResolver } from "@gw/auth";

const KEY_PATH = /^\/api\/v1\/keys\/([0-9a-f]{64})(?:[/?#]|$)/;

/**
 * The edge that forwards a successful PATCH or DELETE of a key drops its cached principal before the
 * client sees the answer, so its very next request is judged on the new state. Other edges learn of
 * the change from the key-change event.
 */
export function dropChangedKey(principals: PrincipalResolver) {
  return (request: IncomingMessage, status: number): void => {
    if (status < 200 || status >= 300) return;
    if (request.method !== "PATCH" && request.method !== "DELETE") return;
    const hash = KEY_PATH.exec(request.url ?? "")?.[1];
    if (hash) principals.invalidate(hash);
  };
}
