;; The similarity kernel of vector-matrix.ts, in WebAssembly with 128-bit SIMD: one query
;; against every row of a matrix, four components a step. dot-kernel.ts embeds its binary;
;; dot-kernel.test.ts checks the two agree (assembled with the wabt devDependency).
(module
  (memory (export "memory") 1)
  ;; out[r] = sum over k of query[k] * matrix[r * dims + k], for r < rows. Byte offsets,
  ;; 16-aligned; dims a multiple of 4.
  (func (export "dots") (param $query i32) (param $matrix i32) (param $rows i32) (param $dims i32) (param $out i32)
    (local $end i32) (local $q i32) (local $qEnd i32) (local $acc v128) (local $acc2 v128)
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $rows) (i32.const 2))))
    (local.set $qEnd (i32.add (local.get $query) (i32.shl (local.get $dims) (i32.const 2))))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $acc (v128.const f32x4 0 0 0 0))
        (local.set $acc2 (v128.const f32x4 0 0 0 0))
        (local.set $q (local.get $query))
        ;; two accumulators, 8 components a turn, while at least 8 remain
        (block $pairsDone
          (loop $pairs
            (br_if $pairsDone (i32.gt_u (i32.add (local.get $q) (i32.const 32)) (local.get $qEnd)))
            (local.set $acc (f32x4.add (local.get $acc)
              (f32x4.mul (v128.load (local.get $q)) (v128.load (local.get $matrix)))))
            (local.set $acc2 (f32x4.add (local.get $acc2)
              (f32x4.mul (v128.load offset=16 (local.get $q)) (v128.load offset=16 (local.get $matrix)))))
            (local.set $q (i32.add (local.get $q) (i32.const 32)))
            (local.set $matrix (i32.add (local.get $matrix) (i32.const 32)))
            (br $pairs)))
        (if (i32.lt_u (local.get $q) (local.get $qEnd))
          (then
            (local.set $acc (f32x4.add (local.get $acc)
              (f32x4.mul (v128.load (local.get $q)) (v128.load (local.get $matrix)))))
            (local.set $matrix (i32.add (local.get $matrix) (i32.const 16)))))
        (local.set $acc (f32x4.add (local.get $acc) (local.get $acc2)))
        (f32.store (local.get $out)
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $acc)) (f32x4.extract_lane 1 (local.get $acc)))
            (f32.add (f32x4.extract_lane 2 (local.get $acc)) (f32x4.extract_lane 3 (local.get $acc)))))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $row))))
)
