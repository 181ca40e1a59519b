;; The module src/math.wasm is built from, with wabt:
;;   wat2wasm src/math.wat -o src/math.wasm
;; It adds in WebAssembly, calls back into JavaScript, and keeps a sum in
;; its memory that JavaScript reads through exports.memory.buffer.
(module
  (import "env" "scale" (func $scale (param i32) (result i32)))
  (memory (export "memory") 1)
  (func (export "add") (param $a i32) (param $b i32) (result i32)
    (i32.add (local.get $a) (local.get $b)))
  ;; addScaled returns scale(a + b), scale being the JavaScript import.
  (func (export "addScaled") (param $a i32) (param $b i32) (result i32)
    (call $scale (i32.add (local.get $a) (local.get $b))))
  ;; sumTo writes 1 + 2 + ... + n at address 0 and returns the address.
  (func (export "sumTo") (param $n i32) (result i32)
    (local $i i32) (local $s i32)
    (block $done
      (loop $next
        (br_if $done (i32.gt_s (local.get $i) (local.get $n)))
        (local.set $s (i32.add (local.get $s) (local.get $i)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (i32.store (i32.const 0) (local.get $s))
    (i32.const 0)))
