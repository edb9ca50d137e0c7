/** The little of Deno's API the runner uses, typed here (the host has no Deno types). */

export interface DenoApi {
  stdin: { readable: ReadableStream<Uint8Array> };
  stdout: { writeSync(bytes: Uint8Array): number };
  exit(code: number): never;
}

/** V8's CallSite, as `Error.prepareStackTrace` receives it. */
export interface CallSite {
  isPromiseAll(): boolean;
  getPromiseIndex(): number | null;
  getScriptNameOrSourceURL(): string | null | undefined;
  getLineNumber(): number | null;
  getColumnNumber(): number | null;
  getFunctionName(): string | null;
  isEval(): boolean;
  isToplevel(): boolean;
  getTypeName(): string | null;
  isConstructor(): boolean;
  isAsync(): boolean;
}
