/**
 * Int8 quantisation with one scale per vector, as the search tables and the vector matrix store
 * embeddings: `out[k] = round(values[k] / scale)`, the scale taking the largest magnitude to 127
 * (1 for an all-zero vector). Returns the scale; `values[k] ≈ out[k] × scale`.
 */
export function quantiseInt8(values: ArrayLike<number>, out: Int8Array): number {
  let largest = 0;
  for (let k = 0; k < values.length; k++) largest = Math.max(largest, Math.abs(values[k] ?? 0));
  const scale = largest / 127 || 1;
  for (let k = 0; k < values.length; k++) out[k] = Math.round((values[k] ?? 0) / scale);
  return scale;
}
