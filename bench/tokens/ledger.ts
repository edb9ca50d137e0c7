import type { Tokenizer } from "../../src/output/tokenizer.ts";

/** What one side of a workload put into the model's context, by kind, in tokens. */
export class ContextLedger {
  readonly #tokenizer: Tokenizer;
  readonly entries: Array<{ kind: string; tokens: number }> = [];

  constructor(tokenizer: Tokenizer) {
    this.#tokenizer = tokenizer;
  }

  add(kind: string, text: string): number {
    const tokens = this.#tokenizer.count(text);
    this.entries.push({ kind, tokens });
    return tokens;
  }

  get total(): number {
    return this.entries.reduce((sum, entry) => sum + entry.tokens, 0);
  }

  of(kind: string): number {
    return this.entries.filter((entry) => entry.kind === kind).reduce((sum, entry) => sum + entry.tokens, 0);
  }
}

/** The text a model reads from a tool result: its text content (images as a stub). */
export function resultText(result: unknown): string {
  const content = ((result as { content?: unknown }).content ?? []) as Array<{ type: string; text?: string }>;
  return content.map((part) => (part.type === "text" ? (part.text ?? "") : `[${part.type}]`)).join("\n");
}
