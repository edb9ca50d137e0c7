// `toolscript/server`: the MCP front ends, for programs that embed the gateway.
export { createMcpServer } from "./create-mcp-server.ts";
export { ServerError, type ServerErrorCode } from "./errors.ts";
export { type HttpServeOptions, type RunningHttpServer, serveHttp } from "./http/http-server.ts";
export { serveStdio } from "./stdio.ts";
