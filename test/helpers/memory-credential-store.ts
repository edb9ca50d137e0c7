import type { CredentialStore, ServerCredentials } from "../../src/auth/stored-credentials.ts";

/** The encrypted credential store's contract without the encryption: values kept as JSON text, as the vault keeps them. */
export class MemoryCredentialStore implements CredentialStore {
  readonly values = new Map<string, string>();
  /** Writes so far: tests check what does and does not reach the store. */
  puts = 0;

  get<T>(server: string): T | undefined {
    const text = this.values.get(server);
    return text === undefined ? undefined : (JSON.parse(text) as T);
  }

  put(server: string, value: unknown): void {
    this.puts++;
    this.values.set(server, JSON.stringify(value));
  }

  delete(server: string): boolean {
    return this.values.delete(server);
  }

  record(server: string): ServerCredentials | undefined {
    return this.get<ServerCredentials>(server);
  }
}
