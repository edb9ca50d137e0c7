import { inProcessSuite } from "./attack-suites.ts";

inProcessSuite("process");
