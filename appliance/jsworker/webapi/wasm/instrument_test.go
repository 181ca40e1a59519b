package wasm

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// TestInstrumentationKeepsBehaviour runs exports of fixtures as they are
// and instrumented, and compares their results.
func TestInstrumentationKeepsBehaviour(t *testing.T) {
	for _, tc := range []struct {
		fixture, export string
		args            []uint64
	}{
		{"opcodes", "control", []uint64{5}},
		{"opcodes", "control", []uint64{9}},
		{"opcodes", "memory", nil},
		{"opcodes", "refs", nil},
		{"opcodes", "simd", nil},
		{"opcodes", "tail", nil},
		{"loop", "count", []uint64{1000}},
		{"numbers", "add", []uint64{2, 3}},
		{"refs", "callAt", []uint64{1, 10}},
	} {
		t.Run(tc.fixture+"."+tc.export, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", tc.fixture+".wasm"))
			if err != nil {
				t.Fatal(err)
			}
			info, err := parseModule(b)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			ib, err := instrument(b, info)
			if err != nil {
				t.Fatalf("instrument: %v", err)
			}
			want := callExport(t, b, tc.export, tc.args)
			got := callExport(t, ib, tc.export, tc.args)
			if len(got) != len(want) || len(got) > 0 && got[0] != want[0] {
				t.Errorf("instrumented: got %v, want %v", got, want)
			}
			again, err := parseModule(ib)
			if err != nil {
				t.Fatalf("parse the instrumented module: %v", err)
			}
			if got, want := len(again.globals), len(info.globals)+1; got != want {
				t.Errorf("globals: got %d, want %d", got, want)
			}
		})
	}
}

// callExport instantiates b on its own runtime and calls export.
func callExport(t *testing.T, b []byte, export string, args []uint64) []uint64 {
	t.Helper()
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCoreFeatures(features))
	defer rt.Close(ctx)
	mod, err := rt.InstantiateWithConfig(ctx, b, wazero.NewModuleConfig().WithName(""))
	if err != nil {
		t.Fatalf("instantiate: %v", err)
	}
	res, err := mod.ExportedFunction(export).Call(ctx, args...)
	if err != nil {
		t.Fatalf("call %s: %v", export, err)
	}
	return res
}

// TestTheStopFlagStopsEveryKindOfRunaway sets the stop flag of an
// instrumented module and calls functions that would never return.
func TestTheStopFlagStopsEveryKindOfRunaway(t *testing.T) {
	b, err := os.ReadFile("testdata/loop.wasm")
	if err != nil {
		t.Fatal(err)
	}
	info, err := parseModule(b)
	if err != nil {
		t.Fatal(err)
	}
	ib, err := instrument(b, info)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCoreFeatures(features))
	defer rt.Close(ctx)
	mod, err := rt.InstantiateWithConfig(ctx, ib, wazero.NewModuleConfig().WithName(""))
	if err != nil {
		t.Fatal(err)
	}
	stop := mod.ExportedGlobal(stopExport).(api.MutableGlobal)
	stop.Set(1)
	for _, name := range []string{"spin", "count"} {
		if _, err := mod.ExportedFunction(name).Call(ctx, 10); err == nil {
			t.Errorf("%s: returned with the stop flag set", name)
		}
	}
	stop.Set(0)
	if res, err := mod.ExportedFunction("count").Call(ctx, 10); err != nil || res[0] != 10 {
		t.Errorf("count after the flag was cleared: got %v, %v", res, err)
	}
}

// TestMemoriesAreCapped: the instrumentation lowers the maximum of every
// memory a module defines to maxMemoryPages.
func TestMemoriesAreCapped(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   limits
		want limits
	}{
		{"no maximum", limits{min: 1}, limits{min: 1, max: maxMemoryPages, hasMax: true}},
		{"a larger maximum", limits{min: 16, max: 32768, hasMax: true}, limits{min: 16, max: maxMemoryPages, hasMax: true}},
		{"a smaller maximum", limits{min: 1, max: 100, hasMax: true}, limits{min: 1, max: 100, hasMax: true}},
		{"a larger minimum", limits{min: 4000}, limits{min: 4000, max: 4000, hasMax: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := memoryModule(tc.in)
			info, err := parseModule(b)
			if err != nil {
				t.Fatal(err)
			}
			ib, err := instrument(b, info)
			if err != nil {
				t.Fatal(err)
			}
			again, err := parseModule(ib)
			if err != nil {
				t.Fatal(err)
			}
			if got := again.memories[0]; got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestMalformedBinaries(t *testing.T) {
	good, err := os.ReadFile("testdata/numbers.wasm")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"no magic", []byte("hello world")},
		{"version 2", append([]byte{0, 'a', 's', 'm', 2, 0, 0, 0}, good[8:]...)},
		{"truncated", good[:len(good)-3]},
		{"section past the end", append(append([]byte{}, wasmHeader...), 1, 100, 0)},
		{"unknown opcode", oneSection(secCode, []byte{1, 3, 0, 0xff, opEnd})},
		{"a long integer", oneSection(secType, []byte{0x81, 0x80, 0x80, 0x80, 0x80, 0x01})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			info, err := parseModule(tc.b)
			if err == nil {
				_, err = instrument(tc.b, info)
			}
			if !errors.Is(err, errMalformed) {
				t.Errorf("got %v, want errMalformed", err)
			}
			if err := Precompile(context.Background(), tc.b); err == nil {
				t.Error("Precompile accepted it")
			}
		})
	}
}

// oneSection is a binary of one section.
func oneSection(id byte, body []byte) []byte {
	w := header()
	w.section(id, &writer{b: body})
	return w.b
}
