import { pythonServeSuite } from "./attack-suites.ts";

pythonServeSuite();
