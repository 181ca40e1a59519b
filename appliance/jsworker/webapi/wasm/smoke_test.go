package wasm

import "testing"

func TestSmoke(t *testing.T) {
	iso := newIsolate(t)
	runCases(t, iso, []evalCase{
		{"add", `const {instance} = await WebAssembly.instantiate(fixture("numbers")); return instance.exports.add(2, 3)`, "5"},
	})
}
