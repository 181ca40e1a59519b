;; Imported and exported globals.
(module
  (import "env" "base" (global $base i32))
  (import "env" "big" (global $big i64))
  (import "env" "shared" (global $shared (mut f64)))
  (global $mine (export "mine") (mut i32) (i32.const 10))
  (global (export "k") i64 (i64.const -3))
  (export "shared" (global $shared))
  (func (export "base") (result i32) (global.get $base))
  (func (export "big") (result i64) (global.get $big))
  (func (export "halveShared")
    (global.set $shared (f64.div (global.get $shared) (f64.const 2))))
  (func (export "readMine") (result i32) (global.get $mine)))
