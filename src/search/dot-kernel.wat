;; The similarity kernel of vector-matrix.ts, in WebAssembly with 128-bit SIMD: one query
;; against every row of a matrix, all int8 (each row and the query quantised with a scale of
;; its own). dot-kernel.ts embeds its binary; dot-kernel.test.ts checks the two agree
;; (assembled with the wabt devDependency).
;;
;; Why int8: at 10,000 tools a search reads the whole matrix once per query vector, and other
;; work evicts it between searches; 64 float32 dimensions (2.5 MB) took 0.4 ms from memory,
;; 64 int8 ones 0.12 ms. Rows go four at a time: each query load serves four rows, and the four
;; sums are reduced across lanes together into one store.
(module
  (memory (export "memory") 1)
  ;; out[r] = queryScale * scales[r] * (sum over k of query[k] * matrix[r * stride + k]), an f32
  ;; per row r < rows; query and rows are int8 and `stride` bytes long (a positive multiple of
  ;; 16, zero-padded), scales f32. Byte offsets, 16-aligned.
  (func (export "dots") (param $query i32) (param $matrix i32) (param $rows i32) (param $stride i32)
    (param $scales i32) (param $queryScale f32) (param $out i32)
    (local $quadsEnd i32) (local $end i32) (local $at i32)
    (local $row1 i32) (local $row2 i32) (local $row3 i32)
    (local $q v128) (local $m v128) (local $sum0 v128) (local $sum1 v128) (local $sum2 v128) (local $sum3 v128)
    (local $pairs01 v128) (local $pairs23 v128)
    (local.set $quadsEnd (i32.add (local.get $out) (i32.shl (i32.and (local.get $rows) (i32.const -4)) (i32.const 2))))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $rows) (i32.const 2))))
    (block $quadsDone
      (loop $quad
        (br_if $quadsDone (i32.ge_u (local.get $out) (local.get $quadsEnd)))
        (local.set $sum0 (v128.const i32x4 0 0 0 0))
        (local.set $sum1 (v128.const i32x4 0 0 0 0))
        (local.set $sum2 (v128.const i32x4 0 0 0 0))
        (local.set $sum3 (v128.const i32x4 0 0 0 0))
        (local.set $row1 (i32.add (local.get $matrix) (local.get $stride)))
        (local.set $row2 (i32.add (local.get $row1) (local.get $stride)))
        (local.set $row3 (i32.add (local.get $row2) (local.get $stride)))
        (local.set $at (i32.const 0))
        (loop $components
          ;; 16 products a row: int8 × int8 into int16 lanes (at most 127 × 128), pairs summed into int32
          (local.set $q (v128.load (i32.add (local.get $query) (local.get $at))))
          (local.set $m (v128.load (i32.add (local.get $matrix) (local.get $at))))
          (local.set $sum0 (i32x4.add (local.get $sum0) (i32x4.add
            (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_low_i8x16_s (local.get $q) (local.get $m)))
            (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_high_i8x16_s (local.get $q) (local.get $m))))))
          (local.set $m (v128.load (i32.add (local.get $row1) (local.get $at))))
          (local.set $sum1 (i32x4.add (local.get $sum1) (i32x4.add
            (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_low_i8x16_s (local.get $q) (local.get $m)))
            (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_high_i8x16_s (local.get $q) (local.get $m))))))
          (local.set $m (v128.load (i32.add (local.get $row2) (local.get $at))))
          (local.set $sum2 (i32x4.add (local.get $sum2) (i32x4.add
            (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_low_i8x16_s (local.get $q) (local.get $m)))
            (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_high_i8x16_s (local.get $q) (local.get $m))))))
          (local.set $m (v128.load (i32.add (local.get $row3) (local.get $at))))
          (local.set $sum3 (i32x4.add (local.get $sum3) (i32x4.add
            (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_low_i8x16_s (local.get $q) (local.get $m)))
            (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_high_i8x16_s (local.get $q) (local.get $m))))))
          (local.set $at (i32.add (local.get $at) (i32.const 16)))
          (br_if $components (i32.lt_u (local.get $at) (local.get $stride))))
        ;; [s0.0+s0.2, s1.0+s1.2, s0.1+s0.3, s1.1+s1.3], the same for rows 2 and 3, then
        ;; [row 0, row 1, row 2, row 3] from their halves.
        (local.set $pairs01 (i32x4.add
          (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (local.get $sum0) (local.get $sum1))
          (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (local.get $sum0) (local.get $sum1))))
        (local.set $pairs23 (i32x4.add
          (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (local.get $sum2) (local.get $sum3))
          (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (local.get $sum2) (local.get $sum3))))
        (v128.store (local.get $out) (f32x4.mul
          (f32x4.mul
            (f32x4.convert_i32x4_s (i32x4.add
              (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $pairs01) (local.get $pairs23))
              (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $pairs01) (local.get $pairs23))))
            (v128.load (local.get $scales)))
          (f32x4.splat (local.get $queryScale))))
        (local.set $matrix (i32.add (local.get $row3) (local.get $stride)))
        (local.set $scales (i32.add (local.get $scales) (i32.const 16)))
        (local.set $out (i32.add (local.get $out) (i32.const 16)))
        (br $quad)))
    ;; the last rows, fewer than four, one at a time
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $sum0 (v128.const i32x4 0 0 0 0))
        (local.set $at (i32.const 0))
        (loop $rowComponents
          (local.set $q (v128.load (i32.add (local.get $query) (local.get $at))))
          (local.set $m (v128.load (i32.add (local.get $matrix) (local.get $at))))
          (local.set $sum0 (i32x4.add (local.get $sum0) (i32x4.add
            (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_low_i8x16_s (local.get $q) (local.get $m)))
            (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_high_i8x16_s (local.get $q) (local.get $m))))))
          (local.set $at (i32.add (local.get $at) (i32.const 16)))
          (br_if $rowComponents (i32.lt_u (local.get $at) (local.get $stride))))
        (f32.store (local.get $out)
          (f32.mul
            (f32.mul
              (f32.convert_i32_s
                (i32.add
                  (i32.add (i32x4.extract_lane 0 (local.get $sum0)) (i32x4.extract_lane 1 (local.get $sum0)))
                  (i32.add (i32x4.extract_lane 2 (local.get $sum0)) (i32x4.extract_lane 3 (local.get $sum0)))))
              (f32.load (local.get $scales)))
            (local.get $queryScale)))
        (local.set $matrix (i32.add (local.get $matrix) (local.get $stride)))
        (local.set $scales (i32.add (local.get $scales) (i32.const 4)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $row))))
)
