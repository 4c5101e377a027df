import type { Logger } from "@gw/logger";
import type { KeyServiceServer } from "@gw/proto/keys/v1/keys";
import { unaryHandler } from "@gw/rpc";
import type { Kysely } from "kysely";
import type { KeysTables } from "../db/schema.js";
import { authenticateKey } from "../keys/authenticate.js";

export function keyService(db: Kysely<KeysTables>, logger: Logger): KeyServiceServer {
  return {
    authenticate: unaryHandler((request) => authenticateKey(db, request.keyHash), logger),
  };
}
