import { readdir, readFile, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Plugin } from "vite";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text files worth compressing; images and fonts in the build are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|map|webmanifest|xml)$/;

export interface PrecompressedFile {
  /** Relative to the build folder, with forward slashes. */
  path: string;
  identity: number;
  /** Bytes of the `.br` / `.gz` sibling, or undefined when none was written (it was not smaller). */
  br: number | undefined;
  gzip: number | undefined;
}

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) beside each text file under
 * `dir`, so the edge sends them as they are (apps/edge/src/console/precompressed.ts) instead of the
 * identity bytes or compressing on every request. A sibling that would not be smaller is not written:
 * the edge serves a sibling only where one exists.
 */
export async function precompress(dir: string): Promise<PrecompressedFile[]> {
  const files = (await listFiles(dir)).filter((file) => COMPRESSIBLE.test(file)).sort();
  return Promise.all(
    files.map(async (file): Promise<PrecompressedFile> => {
      const bytes = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(bytes, {
          params: {
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        }),
        gzipAsync(bytes, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      return {
        path: relative(dir, file).split("\\").join("/"),
        identity: bytes.length,
        br: await writeIfSmaller(`${file}.br`, br, bytes.length),
        gzip: await writeIfSmaller(`${file}.gz`, gz, bytes.length),
      };
    }),
  );
}

async function writeIfSmaller(path: string, bytes: Buffer, identity: number): Promise<number | undefined> {
  if (bytes.length >= identity) return undefined;
  await writeFile(path, bytes);
  return bytes.length;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** Runs precompress over the output folder once Vite has written the bundle (build only). */
export function precompressPlugin(): Plugin {
  let outDir = "";
  let log: (message: string) => void = () => {};
  return {
    name: "gw:precompress",
    apply: "build",
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
      log = (message) => config.logger.info(message);
    },
    async closeBundle() {
      const files = await precompress(outDir);
      for (const file of files.filter((entry) => entry.identity >= 1024))
        log(
          `precompressed ${file.path}: ${file.identity} B, br ${file.br ?? "-"} B, gzip ${file.gzip ?? "-"} B`,
        );
    },
  };
}
