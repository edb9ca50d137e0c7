import type { CredentialStore, ServerCredentials } from "../../src/auth/stored-credentials.ts";

/** The encrypted credential store's contract without the encryption: values kept as JSON text, as the vault keeps them. */
export class MemoryCredentialStore implements CredentialStore {
  readonly values = new Map<string, string>();
  /** Writes so far: tests check what does and does not reach the store. */
  puts = 0;

  async get<T>(server: string): Promise<T | undefined> {
    return this.#read<T>(server);
  }

  async put(server: string, value: unknown): Promise<void> {
    this.puts++;
    this.values.set(server, JSON.stringify(value));
  }

  async delete(server: string): Promise<boolean> {
    return this.values.delete(server);
  }

  /** What is stored for `server` now (synchronous: for assertions). */
  record(server: string): ServerCredentials | undefined {
    return this.#read<ServerCredentials>(server);
  }

  #read<T>(server: string): T | undefined {
    const text = this.values.get(server);
    return text === undefined ? undefined : (JSON.parse(text) as T);
  }
}
