/**
 * The `.pyi` of the Python sandbox's gateway globals besides `tools`
 * (`resources`, `prompts`), as the driver defines them
 * (src/sandbox/python/driver/toolscript_driver/resources.py): what
 * `describe_tools` with `language: "python"` can put beside a tool's stub.
 */
export const PYTHON_GLOBALS_STUB = `from typing import Any, TypedDict, NotRequired

class ResourceContent(TypedDict):
    uri: str
    mimeType: NotRequired[str]
    text: NotRequired[str]
    bytes: NotRequired[bytes]

class ResourceRead(ResourceContent):
    server: str
    contents: list[ResourceContent]

class Resources:
    async def read(self, uri: str, server: str | None = None) -> ResourceRead:
        """A resource's contents (text, or bytes for a blob). The server that returned the URI
        (a resource_link) or listed it is asked, else those whose templates match; \`server\` picks one."""
    async def list(self, server: str | None = None) -> list[dict[str, Any]]:
        """The resources of \`server\` (of every server offering resources without it), each with its server."""
    async def templates(self, server: str | None = None) -> list[dict[str, Any]]:
        """The resource templates (uriTemplate, name, ...) of \`server\`, or of every server."""

class Prompts:
    async def get(self, server: str, name: str, args: dict[str, str] | None = None, **kwargs: str) -> dict[str, Any]:
        """{server, name, description, messages}: the prompt with its arguments filled in."""
    async def list(self, server: str | None = None) -> list[dict[str, Any]]:
        """The prompts (name, description, arguments) of \`server\`, or of every server."""

resources: Resources
prompts: Prompts
`;
