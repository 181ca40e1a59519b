;; The library app.wat links to.
(module
  (func $double (export "double") (param i32) (result i32)
    (i32.mul (local.get 0) (i32.const 2)))
  (memory (export "mem") 1)
  (data (i32.const 0) "\07")
  (global (export "counter") (mut i32) (i32.const 5))
  (table (export "fns") 2 funcref)
  (elem (i32.const 0) $double))
