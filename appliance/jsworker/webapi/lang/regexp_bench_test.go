package lang

import (
	"fmt"
	"testing"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
)

// regexpOps are a router's and a string library's regexp calls; each runs
// with re and s in scope.
var regexpOps = []struct{ name, setup, op string }{
	{"exec", `const re = /^\/users\/([^\/]+)\/posts\/(\d+)$/; const s = "/users/ann/posts/42";`, `re.exec(s)`},
	{"test", `const re = /^\/users\/([^\/]+)\/posts\/(\d+)$/; const s = "/users/ann/posts/42";`, `re.test(s)`},
	{"match", `const re = /^\/users\/([^\/]+)\/posts\/(\d+)$/; const s = "/users/ann/posts/42";`, `s.match(re)`},
	{"replaceGlobal", `const re = /-/g; const s = "a-b-c-d-e-f-g-h";`, `s.replace(re, "+")`},
	{"split", `const re = /,\s*/; const s = "a, b, c, d";`, `s.split(re)`},
	{"newRegExp", `const s = "^/users/([^/]+)$";`, `new RegExp(s)`},
	{"execNamed", `const re = new RegExp("^/users/(?<id>[^/]+)/posts/(?<post>\\d+)$"); const s = "/users/ann/posts/42";`, `re.exec(s).groups.id`},
	{"matchNamed", `const re = new RegExp("^/users/(?<id>[^/]+)/posts/(?<post>\\d+)$"); const s = "/users/ann/posts/42";`, `s.match(re).groups.id`},
	{"execIndices", `const re = new RegExp("^/users/([^/]+)/posts/(\\d+)$", "d"); const s = "/users/ann/posts/42";`, `re.exec(s).indices`},
}

// BenchmarkRegExp compares regexp calls in an isolate with only the core
// ("core"), with this package ("lang"), and with this package plus a
// do-nothing RegExp.prototype.exec patch ("protoExecPatched"), which is
// what goja's fast paths for every regexp would cost if literals were
// handled by patching the prototype. Named and d-flag patterns only run
// with lang.
func BenchmarkRegExp(b *testing.B) {
	const patch = `const nativeExec = RegExp.prototype.exec;
		RegExp.prototype.exec = function exec(s) { return nativeExec.call(this, s); };`
	for _, op := range regexpOps {
		for _, variant := range []string{"core", "lang", "protoExecPatched"} {
			if variant == "core" && (op.name == "execNamed" || op.name == "matchNamed" || op.name == "execIndices") {
				continue
			}
			b.Run(op.name+"/"+variant, func(b *testing.B) {
				var iso *jsrt.Isolate
				setup := op.setup
				switch variant {
				case "core":
					iso = jsrttest.New(b)
				case "lang":
					iso = jsrttest.New(b, Extension)
				default:
					iso = jsrttest.New(b, Extension)
					setup = patch + setup
				}
				body := fmt.Sprintf("%s\nfor (let i = 0; i < %d; i++) %s;", setup, b.N, op.op)
				b.ResetTimer()
				if _, err := jsrttest.Eval(iso, body); err != nil {
					b.Fatal(err)
				}
			})
		}
	}
}
