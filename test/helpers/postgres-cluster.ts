import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

/** A private PostgreSQL cluster for tests: its own folder, a random loopback port, stopped by `stop()`. */
export interface PostgresCluster {
  /** `postgres://toolscript@127.0.0.1:<port>/postgres`. */
  readonly url: string;
  readonly port: number;
  /** A new empty database on this cluster; its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server (fast shutdown) and removes its folder. */
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

/** Where Debian's `postgresql` puts initdb and postgres (the newest major), or PG_BIN. */
function binDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = "/usr/lib/postgresql";
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(join(root, name, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (majors[0] === undefined)
    throw new Error(
      "PostgreSQL is not installed: no /usr/lib/postgresql/<version>/bin/initdb (install Debian's `postgresql` package, or set PG_BIN)",
    );
  return join(root, majors[0], "bin");
}

/** PostgreSQL refuses to run as root: as root, the cluster runs as the `postgres` system user. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  return { uid: id("-u"), gid: id("-g") };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitReady(url: string, server: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`postgres exited with ${server.exitCode}:\n${log()}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => {});
      if (Date.now() > deadline)
        throw new Error(`postgres did not accept connections: ${String(error)}\n${log()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Starts a fresh cluster (initdb in a temporary folder). Stop it with `stop()`; nothing else is touched. */
export async function startPostgres(): Promise<PostgresCluster> {
  const bin = binDir();
  const owner = runAs();
  const dir = mkdtempSync(join(tmpdir(), "toolscript-pg-"));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, "data");
  execFileSync(
    join(bin, "initdb"),
    ["-D", data, "-U", "toolscript", "-A", "trust", "-E", "UTF8", "--no-sync", "--no-instructions"],
    { stdio: ["ignore", "ignore", "pipe"], ...owner },
  );
  const port = await freePort();
  let output = "";
  // fsync off: a test cluster need not survive the machine, only its clients being killed.
  const server = spawn(
    join(bin, "postgres"),
    ["-D", data, "-p", String(port), "-k", dir, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"],
    { stdio: ["ignore", "pipe", "pipe"], ...owner },
  );
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  server.stdout?.on("data", keep);
  server.stderr?.on("data", keep);
  const url = `postgres://toolscript@127.0.0.1:${port}/postgres`;
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
      server.kill("SIGINT");
      const timer = setTimeout(() => server.kill("SIGKILL"), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitReady(url, server, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    port,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      } finally {
        await client.end();
      }
      return `postgres://toolscript@127.0.0.1:${port}/${encodeURIComponent(name)}`;
    },
    stop,
  };
}
