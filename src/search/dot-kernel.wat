;; The similarity kernel of vector-matrix.ts, in WebAssembly with 128-bit SIMD: one query
;; against every row of a matrix. dot-kernel.ts embeds its binary; dot-kernel.test.ts checks
;; the two agree (assembled with the wabt devDependency).
;;
;; Rows go four at a time: each load of four query components serves four rows, and the four
;; sums are reduced across lanes together into one store. At 64 dimensions this takes a third
;; less time than one row at a time (the reductions and query loads dominated).
(module
  (memory (export "memory") 1)
  ;; out[r] = sum over k of query[k] * matrix[r * dims + k], for r < rows. Byte offsets,
  ;; 16-aligned; dims a positive multiple of 4.
  (func (export "dots") (param $query i32) (param $matrix i32) (param $rows i32) (param $dims i32) (param $out i32)
    (local $rowBytes i32) (local $quadsEnd i32) (local $end i32) (local $at i32)
    (local $row1 i32) (local $row2 i32) (local $row3 i32)
    (local $q v128) (local $sum0 v128) (local $sum1 v128) (local $sum2 v128) (local $sum3 v128)
    (local $pairs01 v128) (local $pairs23 v128)
    (local.set $rowBytes (i32.shl (local.get $dims) (i32.const 2)))
    (local.set $quadsEnd (i32.add (local.get $out) (i32.shl (i32.and (local.get $rows) (i32.const -4)) (i32.const 2))))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $rows) (i32.const 2))))
    (block $quadsDone
      (loop $quad
        (br_if $quadsDone (i32.ge_u (local.get $out) (local.get $quadsEnd)))
        (local.set $sum0 (v128.const f32x4 0 0 0 0))
        (local.set $sum1 (v128.const f32x4 0 0 0 0))
        (local.set $sum2 (v128.const f32x4 0 0 0 0))
        (local.set $sum3 (v128.const f32x4 0 0 0 0))
        (local.set $row1 (i32.add (local.get $matrix) (local.get $rowBytes)))
        (local.set $row2 (i32.add (local.get $row1) (local.get $rowBytes)))
        (local.set $row3 (i32.add (local.get $row2) (local.get $rowBytes)))
        (local.set $at (i32.const 0))
        (loop $components
          (local.set $q (v128.load (i32.add (local.get $query) (local.get $at))))
          (local.set $sum0 (f32x4.add (local.get $sum0)
            (f32x4.mul (local.get $q) (v128.load (i32.add (local.get $matrix) (local.get $at))))))
          (local.set $sum1 (f32x4.add (local.get $sum1)
            (f32x4.mul (local.get $q) (v128.load (i32.add (local.get $row1) (local.get $at))))))
          (local.set $sum2 (f32x4.add (local.get $sum2)
            (f32x4.mul (local.get $q) (v128.load (i32.add (local.get $row2) (local.get $at))))))
          (local.set $sum3 (f32x4.add (local.get $sum3)
            (f32x4.mul (local.get $q) (v128.load (i32.add (local.get $row3) (local.get $at))))))
          (local.set $at (i32.add (local.get $at) (i32.const 16)))
          (br_if $components (i32.lt_u (local.get $at) (local.get $rowBytes))))
        ;; [s0.0+s0.2, s1.0+s1.2, s0.1+s0.3, s1.1+s1.3], the same for rows 2 and 3, then
        ;; [row 0, row 1, row 2, row 3] from their halves.
        (local.set $pairs01 (f32x4.add
          (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (local.get $sum0) (local.get $sum1))
          (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (local.get $sum0) (local.get $sum1))))
        (local.set $pairs23 (f32x4.add
          (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (local.get $sum2) (local.get $sum3))
          (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (local.get $sum2) (local.get $sum3))))
        (v128.store (local.get $out) (f32x4.add
          (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $pairs01) (local.get $pairs23))
          (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $pairs01) (local.get $pairs23))))
        (local.set $matrix (i32.add (local.get $row3) (local.get $rowBytes)))
        (local.set $out (i32.add (local.get $out) (i32.const 16)))
        (br $quad)))
    ;; the last rows, fewer than four, one at a time
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $sum0 (v128.const f32x4 0 0 0 0))
        (local.set $at (i32.const 0))
        (loop $rowComponents
          (local.set $sum0 (f32x4.add (local.get $sum0) (f32x4.mul
            (v128.load (i32.add (local.get $query) (local.get $at)))
            (v128.load (i32.add (local.get $matrix) (local.get $at))))))
          (local.set $at (i32.add (local.get $at) (i32.const 16)))
          (br_if $rowComponents (i32.lt_u (local.get $at) (local.get $rowBytes))))
        (f32.store (local.get $out)
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $sum0)) (f32x4.extract_lane 1 (local.get $sum0)))
            (f32.add (f32x4.extract_lane 2 (local.get $sum0)) (f32x4.extract_lane 3 (local.get $sum0)))))
        (local.set $matrix (i32.add (local.get $matrix) (local.get $rowBytes)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $row))))
)
