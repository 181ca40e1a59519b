;; Instructions of every encoding the instrumentation must step over.
(module
  (type $bin (func (param i32 i32) (result i32)))
  (memory 1)
  (table $t 4 funcref)
  (table $x 2 externref)
  (global $g (mut i64) (i64.const -9223372036854775808))
  (data $d "\01\02\03\04")
  (elem $e func $add $sub)
  (func $add (type $bin) (i32.add (local.get 0) (local.get 1)))
  (func $sub (type $bin) (i32.sub (local.get 0) (local.get 1)))
  ;; blocks with results, br_table, call_indirect and select with a type
  (func (export "control") (param $n i32) (result i32)
    (local $acc i32)
    (table.init $t $e (i32.const 0) (i32.const 0) (i32.const 2))
    (block $out (result i32)
      (loop $again (result i32)
        (block $b0
          (block $b1
            (br_table $b0 $b1 $b0 (i32.rem_u (local.get $n) (i32.const 3))))
          (local.set $acc (call_indirect $t (type $bin) (local.get $acc) (i32.const 3) (i32.const 0)))
          (br $out (local.get $acc)))
        (local.set $acc (call_indirect $t (type $bin) (local.get $acc) (i32.const 1) (i32.const 1)))
        (local.set $n (i32.sub (local.get $n) (i32.const 1)))
        (br_if $again (select (result i32) (i32.const 1) (i32.const 0) (i32.gt_s (local.get $n) (i32.const 0))))
        (local.get $acc))))
  ;; memory with offsets and alignments, bulk memory, constants
  (func (export "memory") (result i64)
    (memory.init $d (i32.const 16) (i32.const 0) (i32.const 4))
    (data.drop $d)
    (memory.copy (i32.const 32) (i32.const 16) (i32.const 4))
    (memory.fill (i32.const 40) (i32.const 7) (i32.const 2))
    (i64.store offset=100 align=4 (i32.const 0) (i64.const 0x123456789abcdef))
    (f32.store offset=200 (i32.const 0) (f32.const 1.5))
    (f64.store offset=208 (i32.const 0) (f64.const -2.25))
    (global.set $g (i64.add (global.get $g) (i64.load offset=100 (i32.const 0))))
    (i64.add
      (i64.extend_i32_u (i32.load8_u offset=35 (i32.const 0)))
      (i64.trunc_sat_f64_s (f64.load offset=208 (i32.const 0)))))
  ;; references
  (func (export "refs") (result i32)
    (table.set $x (i32.const 0) (ref.null extern))
    (drop (table.grow $t (ref.func $add) (i32.const 1)))
    (table.fill $t (i32.const 3) (ref.null func) (i32.const 1))
    (table.copy $t $t (i32.const 2) (i32.const 0) (i32.const 1))
    (elem.drop $e)
    (i32.add (table.size $t) (ref.is_null (table.get $x (i32.const 0)))))
  ;; SIMD
  (func (export "simd") (result i32)
    (v128.store offset=64 (i32.const 0) (v128.const i32x4 1 2 3 4))
    (i32x4.extract_lane 2
      (i32x4.add
        (v128.load offset=64 (i32.const 0))
        (i8x16.shuffle 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
          (v128.load32_zero offset=64 (i32.const 0))
          (v128.load8_lane 3 (i32.const 64) (v128.const i64x2 0 0))))))
  ;; a tail call
  (func $countdown (param i32) (result i32)
    (if (result i32) (i32.eqz (local.get 0))
      (then (i32.const 99))
      (else (return_call $countdown (i32.sub (local.get 0) (i32.const 1))))))
  (func (export "tail") (result i32)
    (call $countdown (i32.const 100000))))
