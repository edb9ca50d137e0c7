import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { tempDir } from "../../test/helpers/servers.ts";
import { openBrowser } from "./browser.ts";

const URL_TO_OPEN = "https://auth.example/authorize?client_id=abc&state=x%20y";

/** A stand-in browser: a node script that writes its arguments, as JSON, to the file named by ARGV_FILE. */
const dir = tempDir("browser");
const script = join(dir.path, "fake-browser.mjs");
writeFileSync(
  script,
  'import { writeFileSync } from "node:fs";\n' +
    "writeFileSync(process.env.ARGV_FILE, JSON.stringify(process.argv.slice(2)));\n",
);

/** The arguments the stand-in received; it runs detached, so this waits (up to 10 s) for its file. */
async function argumentsWritten(file: string): Promise<string[]> {
  for (let waited = 0; !existsSync(file); waited += 20) {
    if (waited > 10_000) assert.fail(`the stand-in browser wrote no ${file}`);
    await sleep(20);
  }
  // The file may exist before its content is written.
  for (let tries = 0; ; tries++) {
    try {
      return JSON.parse(readFileSync(file, "utf8")) as string[];
    } catch (error) {
      if (tries > 100) throw error;
      await sleep(20);
    }
  }
}

function printer() {
  const lines: string[] = [];
  return { lines, print: (line: string) => lines.push(line) };
}

describe("openBrowser", () => {
  after(() => dir.remove());

  it("runs $BROWSER with its own arguments and the URL last, and prints the URL", async () => {
    const file = join(dir.path, "argv-1.json");
    const { lines, print } = printer();
    const opened = await openBrowser(URL_TO_OPEN, {
      env: { BROWSER: `${process.execPath} ${script} --new-window  --profile=test`, ARGV_FILE: file },
      platform: "aix",
      print,
    });
    assert.equal(opened, "BROWSER");
    assert.deepEqual(await argumentsWritten(file), ["--new-window", "--profile=test", URL_TO_OPEN]);
    assert.ok(
      lines.some((line) => line.includes(URL_TO_OPEN)),
      lines.join("\n"),
    );
  });

  it("BROWSER with %s: the URL goes there instead of last", async () => {
    const file = join(dir.path, "argv-3.json");
    const opened = await openBrowser(URL_TO_OPEN, {
      env: { BROWSER: `${process.execPath} ${script} --url=%s --new-tab`, ARGV_FILE: file },
      platform: "aix",
      print: () => {},
    });
    assert.equal(opened, "BROWSER");
    assert.deepEqual(await argumentsWritten(file), [`--url=${URL_TO_OPEN}`, "--new-tab"]);
  });

  it("a BROWSER that cannot be started: the URL is printed and it says so", async () => {
    const { lines, print } = printer();
    const opened = await openBrowser(URL_TO_OPEN, {
      env: { BROWSER: join(dir.path, "no-such-browser") },
      platform: "linux", // must not fall back to xdg-open: BROWSER was the user's choice
      print,
    });
    assert.equal(opened, "printed");
    assert.ok(lines.some((line) => line.includes(URL_TO_OPEN)));
    assert.ok(
      lines.some((line) => /BROWSER \(.*no-such-browser\) could not be started/.test(line)),
      lines.join("\n"),
    );
  });

  it("BROWSER with ':'-separated commands uses the first that starts", async () => {
    const file = join(dir.path, "argv-2.json");
    const { lines, print } = printer();
    const opened = await openBrowser(URL_TO_OPEN, {
      env: {
        BROWSER: `${join(dir.path, "missing-one")} --flag:${process.execPath} ${script} second`,
        ARGV_FILE: file,
      },
      platform: "aix",
      print,
    });
    assert.equal(opened, "BROWSER");
    assert.deepEqual(await argumentsWritten(file), ["second", URL_TO_OPEN]);
    assert.ok(!lines.some((line) => /could not be started/.test(line)));
  });

  it("BROWSER with blank entries between the ':' that cannot be started: printed, no exception", async () => {
    const { lines, print } = printer();
    const missing = join(dir.path, "missing");
    const opened = await openBrowser(URL_TO_OPEN, { env: { BROWSER: `${missing}: :${missing}-2` }, print });
    assert.equal(opened, "printed");
    assert.ok(lines.some((line) => /could not be started/.test(line)));
  });

  it("without BROWSER on a platform without an opener: printed, nothing started", async () => {
    const { lines, print } = printer();
    assert.equal(
      await openBrowser(URL_TO_OPEN, { env: { BROWSER: "  " }, platform: "aix", print }),
      "printed",
    );
    assert.deepEqual(lines, [`toolscript: to authorize, open ${URL_TO_OPEN}`]);
  });

  it("without BROWSER on Linux without xdg-open on PATH: printed", async () => {
    const { print } = printer();
    // PATH holds only the temp folder: xdg-open cannot be found, so nothing opens on this machine.
    const opened = await openBrowser(URL_TO_OPEN, { env: { PATH: dir.path }, platform: "linux", print });
    assert.equal(opened, "printed");
  });
});
