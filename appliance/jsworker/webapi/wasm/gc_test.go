package wasm

import (
	"runtime"
	"testing"
	"time"
)

// TestInstancesAreClosedWhenCollected: an instance JavaScript no longer
// reaches is closed (removed from wazero's store), with its host module.
func TestInstancesAreClosedWhenCollected(t *testing.T) {
	iso := newIsolate(t)
	const n = 50
	before := closedModules.Load()
	runOne(t, iso, `
		const mod = new WebAssembly.Module(fixture("imports"));
		const imports = { env: { log() {}, twice: (x) => x, fail() {}, pair: () => [0, 0] } };
		for (let i = 0; i < 50; i++) new WebAssembly.Instance(mod, imports).exports.callLog(i)`)
	deadline := time.Now().Add(10 * time.Second)
	for closedModules.Load()-before < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d modules closed, want at least %d", closedModules.Load()-before, n)
		}
		runtime.GC()
	}
}
