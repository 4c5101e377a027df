import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { freePort } from "@gw/db";
import { startProcess, waitForHttp } from "../proc.js";
import { UPSTREAM_KEY } from "./direct.js";
import type { Target } from "./target.js";

/** The anchor's config: one worker (one core, like one edge process), a plain keep-alive reverse proxy. */
export function nginxConfig(dir: string, port: number, upstream: URL, user: string | undefined): string {
  return `${user ? `user ${user};\n` : ""}daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 16384; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  # Prompts up to 64 KB stay in memory; streams are relayed as they come (no buffering).
  client_body_buffer_size 128k;
  client_max_body_size 1m;
  keepalive_requests 1000000;
  upstream fake { server ${upstream.host}; keepalive 512; keepalive_requests 1000000; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://fake;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_buffering off;
      proxy_read_timeout 600s;
    }
  }
}
`;
}

/**
 * Debian's nginx as a plain reverse proxy to the same fake upstream: the cost of any one extra hop on
 * this machine. `bench/scripts/install-nginx.sh` finds or installs it (apt-get); it runs as the current
 * user in the foreground with its config in a temp dir, never as the package's system service. Throws
 * with the reason when it cannot be had, and the run goes on without it.
 */
export async function startNginx(benchDir: string, upstreamUrl: string): Promise<Target> {
  const found = execFileSync("bash", [join(benchDir, "scripts/install-nginx.sh")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  })
    .trim()
    .split("\n")
    .at(-1);
  if (!found || found.startsWith("SKIP:")) throw new Error(found?.slice(5).trim() ?? "no nginx");
  const dir = mkdtempSync(join(tmpdir(), "gw-bench-nginx-"));
  chmodSync(dir, 0o755);
  const port = await freePort();
  // As root the master would hand its worker to "nobody"; keep it as the user that runs the bench.
  const user = process.getuid?.() === 0 ? userInfo().username : undefined;
  writeFileSync(join(dir, "nginx.conf"), nginxConfig(dir, port, new URL(upstreamUrl), user));
  const app = startProcess(
    "nginx",
    found,
    ["-p", dir, "-e", join(dir, "error.log"), "-c", join(dir, "nginx.conf")],
    {},
  );
  const stop = async (): Promise<void> => {
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, app, 15_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    name: "nginx",
    description: `one-hop anchor: ${found} as a plain reverse proxy (1 worker, upstream keep-alive, no buffering; RSS is the master's)`,
    url: `http://127.0.0.1:${port}/v1/chat/completions`,
    headers: { "content-type": "application/json", authorization: `Bearer ${UPSTREAM_KEY}` },
    model: "gpt-4o-mini",
    pids: () => (app.child.pid ? [app.child.pid] : []),
    // The master and its worker are one tree: the worker's CPU is counted as a live descendant.
    processes: (): Record<string, number> => (app.child.pid ? { nginx: app.child.pid } : {}),
    services: [],
    stop,
  };
}
