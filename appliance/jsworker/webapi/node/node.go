package node

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// Extension installs the Node.js compatibility layer: the node:* modules
// and the globals Buffer, process and global. The adapter installs it only
// for workers with the nodejs_compat compatibility flag.
var Extension = jsrt.Extension{Name: "node", Install: install, JS: prelude()}

//go:embed js/*.js
var sources embed.FS

// First and last of the prelude's files: common.js holds what every module
// shares, globals.js defines the globals once every module is registered.
const (
	commonFile  = "js/common.js"
	globalsFile = "js/globals.js"
)

// prelude joins the JavaScript sources: common.js at the top level of the
// prelude function, every other file in a block of its own so that its
// top-level names stay private, globals.js last.
func prelude() string {
	names, err := fs.Glob(sources, "js/*.js")
	if err != nil {
		panic(err) // the pattern is constant
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(read(commonFile))
	stubs, _ := json.Marshal(ModuleNames(Stubbed)) // strings always marshal
	fmt.Fprintf(&b, "\nconst stubbedModules = %s;\n", stubs)
	for _, name := range names {
		if name == commonFile || name == globalsFile {
			continue
		}
		fmt.Fprintf(&b, "{ // %s\n%s\n}\n", name, read(name))
	}
	fmt.Fprintf(&b, "{ // %s\n%s\n}\n", globalsFile, read(globalsFile))
	return b.String()
}

func read(name string) string {
	b, err := sources.ReadFile(name)
	if err != nil {
		panic(err) // embedded at build time
	}
	return string(b)
}

// install puts the natives on host.node.
func install(iso *jsrt.Isolate, host *goja.Object) error {
	n := iso.Runtime().NewObject()
	for _, add := range []func(*jsrt.Isolate, *goja.Object){
		installBuffer,
		installHash,
		installRandom,
		installKDF,
		installCipher,
		installKeys,
		installSign,
	} {
		add(iso, n)
	}
	return host.Set("node", n)
}
