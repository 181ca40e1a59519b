package node_test

import (
	"context"
	"testing"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
	"github.com/dwk/fleet/appliance/jsworker/webapi/node"
)

// BenchmarkIsolateStart measures what the node extension adds to making
// an isolate: its natives and its prelude (modules are made on first
// import).
func BenchmarkIsolateStart(b *testing.B) {
	for _, bc := range []struct {
		name string
		exts []jsrt.Extension
	}{
		{"core", nil},
		{"core+node", []jsrt.Extension{node.Extension}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				iso, err := jsrt.New(jsrt.Config{Name: "bench", Extensions: bc.exts, Logger: jsrttest.Logger(b)})
				if err != nil {
					b.Fatal(err)
				}
				iso.Close()
			}
		})
	}
}

// BenchmarkBuffer measures the hot Buffer paths, one op per iteration.
func BenchmarkBuffer(b *testing.B) {
	iso := jsrttest.New(b, node.Extension)
	for _, bc := range []struct{ name, setup, op string }{
		{"from utf8 string", `const s = "hello world, ".repeat(10);`, `Buffer.from(s)`},
		{"toString utf8", `const buf = Buffer.from("hello world, ".repeat(10));`, `buf.toString()`},
		{"toString hex", `const buf = Buffer.alloc(32, 7);`, `buf.toString("hex")`},
		{"concat 4", `const parts = [Buffer.alloc(100), Buffer.alloc(100), Buffer.alloc(100), Buffer.alloc(100)];`, `Buffer.concat(parts)`},
		{"readUInt32LE", `const buf = Buffer.alloc(8, 1);`, `buf.readUInt32LE(2)`},
		{"sha256 hex", `const crypto = __dwk_import("node:crypto");`, `crypto.createHash("sha256").update("hello world").digest("hex")`},
		{"module import", `__dwk_import("node:stream");`, `__dwk_import("node:stream")`},
		{"baseline: a call that does nothing", ``, `1`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var fn goja.Callable
			if err := iso.Do(context.Background(), func(rt *goja.Runtime) error {
				v, err := rt.RunString(`(function () { const { Buffer } = __dwk_import("node:buffer"); ` + bc.setup + ` return function () { return ` + bc.op + `; }; })()`)
				if err == nil {
					fn, _ = goja.AssertFunction(v)
				}
				return err
			}); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			err := iso.Do(context.Background(), func(rt *goja.Runtime) error {
				for i := 0; i < b.N; i++ {
					if _, err := fn(goja.Undefined()); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		})
	}
}
