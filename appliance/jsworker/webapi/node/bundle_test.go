package node_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/bundle"
	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
)

// TestBundledImports bundles a worker the way the adapter does and runs
// it: named, default, namespace and require imports of node: and bare
// specifiers, stubbed modules imported but unused, and an async generator
// and for await (both lowered by the bundler) over node:stream.
func TestBundledImports(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"index.js": `
import { Buffer } from "node:buffer";
import EventEmitter, { once } from "events";
import * as path from "node:path";
import { createHash } from "crypto";
import { Readable, pipeline } from "node:stream";
import { promisify, inspect } from "node:util";
import fs from "node:fs";
import { readFileSync } from "fs";
import legacy from "./legacy.cjs";

async function* letters() { yield "a"; yield "b"; }

export async function run() {
  const out = [];
  out.push(Buffer.from("hi").toString("hex"));
  const e = new EventEmitter();
  setTimeout(() => e.emit("go", 1), 1);
  out.push((await once(e, "go"))[0]);
  out.push(path.join("/a", "b"));
  out.push(createHash("md5").update("").digest("hex"));
  let s = "";
  for await (const chunk of Readable.from(letters())) s += chunk;
  out.push(s);
  const collected = [];
  await promisify(pipeline)(Readable.from(letters()), async function (source) { for await (const c of source) collected.push(c); });
  out.push(collected.join(""));
  out.push(legacy());
  out.push(typeof fs);
  try { readFileSync("x"); } catch (err) { out.push(err.message); }
  out.push(inspect(Buffer.from("z")));
  return out;
}
`,
		"legacy.cjs": `
const util = require("util");
const { StringDecoder } = require("string_decoder");
function Old() { require("events").EventEmitter.call(this); }
util.inherits(Old, require("events"));
module.exports = () => new StringDecoder("utf8").write(Buffer.from([0xe2, 0x82, 0xac])) + (new Old() instanceof require("events"));
`,
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := bundle.Build(context.Background(), bundle.Options{Dir: dir, Entry: "index.js", NodeCompat: true})
	if err != nil {
		t.Fatalf("bundle: %v", err)
	}
	iso := newIsolate(t)
	if err := iso.Do(context.Background(), func(rt *goja.Runtime) error {
		// Without its source map line: goja would look for the map file.
		script := string(b.Script)
		if k := strings.LastIndex(script, "//# sourceMappingURL="); k >= 0 {
			script = script[:k]
		}
		_, err := rt.RunScript(bundle.ScriptName, script)
		return err
	}); err != nil {
		t.Fatalf("run the bundle: %v", err)
	}
	got := jsrttest.MustEval(t, iso, "return await globalThis."+bundle.GlobalName+".run()")
	want := `["6869",1,"/a/b","d41d8cd98f00b204e9800998ecf8427e","ab","ab","€true","object",` +
		`"dwk does not support the Node.js module \"node:fs\" (its export \"readFileSync\" was used); see docs/porting.md","\u003cBuffer 7a\u003e"]`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
