// Runs the CLI from source, as bin/toolscript.js runs the built one.
import { main } from "../../src/cli/main.ts";

process.exit(await main(process.argv.slice(2)));
