import { serveSuite } from "./attack-suites.ts";

serveSuite("isolate");
