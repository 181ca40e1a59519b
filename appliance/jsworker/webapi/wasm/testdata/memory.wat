;; A memory the module exports and grows; JavaScript imports that read it
;; and grow it (as Emscripten's emscripten_resize_heap does).
(module
  (import "env" "seen" (func $seen (param i32)))
  (import "env" "more" (func $more (result i32)))
  (memory (export "memory") 1 100)
  (data (i32.const 0) "hello")
  (func (export "load") (param i32) (result i32)
    (i32.load8_u (local.get 0)))
  (func (export "store") (param i32 i32)
    (i32.store8 (local.get 0) (local.get 1)))
  (func (export "grow") (param i32) (result i32)
    (memory.grow (local.get 0)))
  ;; growAndReport grows by n pages, writes 42 in the first new page and
  ;; tells JavaScript where.
  (func (export "growAndReport") (param $n i32)
    (local $at i32)
    (local.set $at (i32.mul (memory.grow (local.get $n)) (i32.const 65536)))
    (i32.store8 (local.get $at) (i32.const 42))
    (call $seen (local.get $at)))
  ;; growViaJS has JavaScript grow the memory by a page, writes 7 at the
  ;; start of that page and returns its address.
  (func (export "growViaJS") (result i32)
    (local $at i32)
    (local.set $at (i32.mul (call $more) (i32.const 65536)))
    (i32.store8 (local.get $at) (i32.const 7))
    (local.get $at))
  ;; upper upper-cases ASCII letters in [ptr, ptr+len).
  (func (export "upper") (param $ptr i32) (param $len i32)
    (local $end i32) (local $c i32)
    (local.set $end (i32.add (local.get $ptr) (local.get $len)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $ptr) (local.get $end)))
        (local.set $c (i32.load8_u (local.get $ptr)))
        (if (i32.and (i32.ge_u (local.get $c) (i32.const 97)) (i32.le_u (local.get $c) (i32.const 122)))
          (then (i32.store8 (local.get $ptr) (i32.sub (local.get $c) (i32.const 32)))))
        (local.set $ptr (i32.add (local.get $ptr) (i32.const 1)))
        (br $next)))))
