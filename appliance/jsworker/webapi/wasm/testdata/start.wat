;; A start function that calls JavaScript. (The tests append custom
;; sections to the binary.)
(module
  (import "env" "started" (func $started (param i32)))
  (func $start (call $started (i32.const 99)))
  (start $start))
