/**
 * isolated-vm's cleanup hook on the Node environment can abort the process
 * (`IsolateEnvironment::GetCurrent(): Assertion 'environment != nullptr'`):
 * a garbage collection during the environment's teardown runs the weak
 * callback of a handle the program dropped after the hook removed the
 * environment that callback needs. A process ended by process.exit() skips
 * that teardown; one whose event loop runs dry goes through it. Once an
 * isolate exists, a natural end becomes process.exit() with the same code,
 * after the other 'exit' listeners ran.
 */
let installed = false;

export function exitWithoutIsolateTeardown(): void {
  if (installed) return;
  installed = true;
  const onExit = (code: number): void => {
    // Listeners added after this one would run next; they still do, before the exit.
    const listeners = process.listeners("exit");
    for (const listener of listeners.slice(listeners.indexOf(onExit) + 1)) listener.call(process, code);
    process.exit(code);
  };
  process.on("exit", onExit);
}
