package wasm

import (
	_ "embed"
	"time"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

//go:embed wasm.js
var preludeJS string

// Options configure the extension.
type Options struct {
	// CPULimit is the CPU time an event may use: a call into WebAssembly
	// is stopped when its event would pass it (see the package doc).
	// Default: the isolate's own (jsrt.Isolate.CPULimit).
	CPULimit time.Duration
}

// installHook, when set (by tests), sees the state of every isolate.
var installHook func(*jsrt.Isolate, *state)

// Extension is the WebAssembly namespace, stopping calls at the
// isolate's CPU limit.
var Extension = New(Options{})

// New returns the extension with options o.
func New(o Options) jsrt.Extension {
	return jsrt.Extension{
		Name: "wasm",
		Install: func(iso *jsrt.Isolate, host *goja.Object) error {
			limit := o.CPULimit
			if limit <= 0 {
				limit = iso.CPULimit()
			}
			s := newState(iso, limit)
			if installHook != nil {
				installHook(iso, s)
			}
			return host.Set("wasm", s.natives())
		},
		JS: preludeJS,
	}
}
