import { spawn } from "node:child_process";

/** How the authorization URL reached the user. */
export type OpenedWith = "BROWSER" | "xdg-open" | "open" | "printed";

export interface OpenBrowserOptions {
  env?: Record<string, string | undefined>;
  platform?: NodeJS.Platform;
  /** Where the URL is printed when no browser can be started (stderr: stdout may be the MCP stream). */
  print?: (line: string) => void;
}

/**
 * Opens `url` for a person to approve: `$BROWSER <url>` when set (a command,
 * possibly with arguments, that receives the URL where it says `%s`, else as
 * its last argument), else
 * `xdg-open` (Linux) or `open` (macOS); the URL is printed either way, so a
 * user on a headless machine can copy it. Never waits for the browser to close.
 */
export async function openBrowser(url: string, options: OpenBrowserOptions = {}): Promise<OpenedWith> {
  const env = options.env ?? process.env;
  const print = options.print ?? ((line: string) => process.stderr.write(`${line}\n`));
  print(`toolscript: to authorize, open ${url}`);
  const browser = env.BROWSER?.trim();
  if (browser) {
    // Like Python's webbrowser module: BROWSER may list several commands separated by ':'.
    for (const command of browser.split(":").map((entry) => entry.trim())) {
      if (!command) continue; // "a: :b" has a blank entry: spawn("") would throw, not fail over
      const words = command.split(/\s+/);
      // The BROWSER convention (and Python's webbrowser): "%s" marks where the URL goes; else it is appended.
      const args = words.slice(1);
      const placed = args.some((word) => word.includes("%s"));
      const argv = placed ? args.map((word) => word.replaceAll("%s", () => url)) : [...args, url];
      if (await started(words[0] as string, argv, env)) return "BROWSER";
    }
    print(`toolscript: BROWSER (${browser}) could not be started`);
    return "printed";
  }
  const platform = options.platform ?? process.platform;
  const opener = platform === "darwin" ? "open" : platform === "linux" ? "xdg-open" : undefined;
  if (opener && (await started(opener, [url], env))) return opener;
  return "printed";
}

/** True once the command is running (its own exit status is the browser's business). */
function started(command: string, args: string[], env: Record<string, string | undefined>): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "ignore", detached: true, env: env as NodeJS.ProcessEnv });
    child.once("error", () => resolve(false));
    child.once("spawn", () => {
      child.unref();
      resolve(true);
    });
  });
}
