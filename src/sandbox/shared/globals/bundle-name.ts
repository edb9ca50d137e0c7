/** Name of the variable the prelude's bundle assigns its exports to, inside the prelude's closure. */
export const BUNDLE_GLOBAL_NAME = "toolscriptPrelude";
