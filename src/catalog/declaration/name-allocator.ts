/** Global types the generated declarations use: a generated name must never shadow them. */
const BUILTIN_TYPE_NAMES = ["Array", "Promise", "Record", "ReadonlyArray"];

/** Hands out unique type names within one declaration file: `Foo`, then `Foo2`, `Foo3`, ... */
export class NameAllocator {
  readonly #taken = new Set<string>(BUILTIN_TYPE_NAMES);

  allocate(desired: string): string {
    let name = desired;
    for (let n = 2; this.#taken.has(name); n += 1) name = `${desired}${n}`;
    this.#taken.add(name);
    return name;
  }
}
