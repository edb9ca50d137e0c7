/**
 * Isolates V8 gave up on since the process started (each keeps a stuck thread
 * until the process ends). Its own module, free of isolated-vm, so the CLI's
 * exit path can read it without loading the sandbox.
 */
let catastrophes = 0;

export function countCatastrophe(): void {
  catastrophes++;
}

export function catastrophicIsolates(): number {
  return catastrophes;
}
