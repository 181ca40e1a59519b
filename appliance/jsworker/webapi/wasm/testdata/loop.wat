;; A loop that never ends, and one that does.
(module
  (func (export "spin")
    (loop $forever (br $forever)))
  (func (export "count") (param $n i32) (result i32)
    (local $i i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (local.get $i)))
