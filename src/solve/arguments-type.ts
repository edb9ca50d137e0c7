/**
 * A TypeScript type for the task's `arguments`, read off their JSON values:
 * what the generated tool is told it receives. Arrays take the type of their
 * elements (a union when they differ); nesting is followed a few levels.
 */
const MAX_DEPTH = 4;
const MAX_UNION = 4;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export function argumentsType(args: Record<string, unknown>): string {
  return typeOf(args, 0);
}

function typeOf(value: unknown, depth: number): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return "string";
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "object":
      break;
    default:
      return "unknown";
  }
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? "unknown[]" : "Record<string, unknown>";
  if (Array.isArray(value)) {
    const members = [...new Set(value.map((item) => typeOf(item, depth + 1)))];
    if (members.length === 0) return "unknown[]";
    const element = members.length > MAX_UNION ? "unknown" : members.join(" | ");
    return members.length > 1 && members.length <= MAX_UNION ? `Array<${element}>` : `${element}[]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return "Record<string, unknown>";
  const fields = entries.map(
    ([key, item]) => `${IDENTIFIER.test(key) ? key : JSON.stringify(key)}: ${typeOf(item, depth + 1)}`,
  );
  return `{ ${fields.join("; ")} }`;
}
