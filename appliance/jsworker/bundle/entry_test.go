package bundle

import "testing"

func TestEntryExports(t *testing.T) {
	tests := []struct {
		name, source, want string
		file               string // default index.js
	}{
		{
			name:   "ES module: default and named exports",
			source: "export class Counter {}\nexport const answer = 42;\nexport default { fetch() {} };\n",
			want:   `["Counter","answer","default"]`,
		},
		{
			name:   "CommonJS: module.exports",
			source: "module.exports = { fetch() {} };\n",
			want:   `["fetch"]`,
		},
		{
			name:   "service worker: nothing exported",
			source: "addEventListener(\"fetch\", () => {});\n",
			want:   `"undefined"`,
		},
		{
			name:   "an entry named like the script is not overwritten",
			file:   ScriptName,
			source: "export default { fetch() {} };\n",
			want:   `["default"]`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := tt.file
			if file == "" {
				file = "index.js"
			}
			dir := t.TempDir()
			writeFile(t, dir, file, tt.source)
			b := mustBuild(t, Options{Dir: dir, Entry: file})
			vm := run(t, b, "globalThis.addEventListener = () => {};")
			got := evalJSON(t, vm, `globalThis.__dwk_entry === undefined ? "undefined" : Object.keys(globalThis.__dwk_entry).sort()`)
			if got != tt.want {
				t.Errorf("__dwk_entry = %s, want %s", got, tt.want)
			}
		})
	}
}
