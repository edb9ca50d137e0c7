/** Per-file cap: room for the bench's 10 MB file, small enough to keep one write well under a second. */
export const DEFAULT_MAX_FILE_BYTES = 16 * 1024 * 1024;
export const DEFAULT_MAX_TOTAL_BYTES = 100 * 1024 * 1024;
export const DEFAULT_MAX_FILES = 10_000;

export interface WorkspaceQuotas {
  maxFileBytes: number;
  maxTotalBytes: number;
  maxFiles: number;
}

export const DEFAULT_WORKSPACE_QUOTAS: Readonly<WorkspaceQuotas> = Object.freeze({
  maxFileBytes: DEFAULT_MAX_FILE_BYTES,
  maxTotalBytes: DEFAULT_MAX_TOTAL_BYTES,
  maxFiles: DEFAULT_MAX_FILES,
});

export function resolveQuotas(quotas: Partial<WorkspaceQuotas> = {}): WorkspaceQuotas {
  return {
    maxFileBytes: quotas.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    maxTotalBytes: quotas.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES,
    maxFiles: quotas.maxFiles ?? DEFAULT_MAX_FILES,
  };
}

/** `12.5 MB`-style sizes for error messages. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number(value.toFixed(1))} ${units[unit]}`;
}
