/** Name of the variable the globals' bundle assigns its exports to, inside the prelude's closure. */
export const BUNDLE_GLOBAL_NAME = "toolscriptGlobals";
