// `toolscript/server`: the MCP front ends, for programs that embed the gateway.
export { type ClientConnection, type ClientRequestOptions, connectionOf } from "./client-connection.ts";
export { createMcpServer } from "./create-mcp-server.ts";
export { ServerError, type ServerErrorCode } from "./errors.ts";
export { type Answerer, ClientRouter } from "./forwarding/client-router.ts";
export { routerOf, wireFrontEnd } from "./forwarding/wire-front-end.ts";
export { extendFrontEnd, type FrontEndExtension } from "./front-end-extensions.ts";
export { type HttpServeOptions, type RunningHttpServer, serveHttp } from "./http/http-server.ts";
export { serveStdio } from "./stdio.ts";
