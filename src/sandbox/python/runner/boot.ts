/**
 * What the host writes first on a Python sandbox's stdin, before the JSON
 * lines of the process protocol: one JSON line (this header), then the raw
 * bytes it announces. The sandbox has no read permission, so Pyodide's wasm,
 * its standard library and the memory snapshot arrive over the pipe.
 */
export interface BootHeader {
  type: "boot";
  /** `file:` URL of the read-only Pyodide folder inside the sandbox; its .mjs files are imported from there. */
  indexURL: string;
  /** Byte counts of what follows the header, in this order; `snapshot` is 0 when making one. */
  sizes: { wasm: number; stdlib: number; snapshot: number };
  /** Pyodide's lock file, with no package: nothing can be installed. */
  lockJson: string;
  /** The driver's .py files, written under `driverDir` and put on `sys.path`. */
  driver: { path: string; source: string }[];
  driverDir: string;
  /** Make a memory snapshot and send it back, instead of serving an execution. */
  makeSnapshot: boolean;
}

/** The buffers that follow the header. */
export interface BootFiles {
  wasm: Uint8Array;
  stdlib: Uint8Array;
  snapshot: Uint8Array | undefined;
}

/** The Python module the runner imports from the driver and calls once per execution. */
export const DRIVER_MODULE = "toolscript_driver.run";
/** The Python module whose `deliver(id, replyJson)` the runner calls with each reply from the host. */
export const DELIVER_MODULE = "toolscript_driver.host_calls";
