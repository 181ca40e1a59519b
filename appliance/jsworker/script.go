package jsworker

import (
	"context"
	"errors"
	"fmt"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"

	"github.com/dwk/fleet/appliance/jsworker/bundle"
	"github.com/dwk/fleet/appliance/jsworker/webapi/wasm"
)

// Script is a bundle compiled once, to run in every isolate of a worker.
type Script struct {
	prg     *goja.Program
	modules []bundle.Module
	hash    string
}

// Compile parses and compiles a bundle. Positions in its errors and stack
// traces are the project's own files and lines, through the bundle's
// source map.
func Compile(b *bundle.Bundle) (*Script, error) {
	loader := func(path string) ([]byte, error) {
		if path == bundle.ScriptName+".map" && len(b.SourceMap) > 0 {
			return b.SourceMap, nil
		}
		return nil, errors.New("no such source map")
	}
	script := string(b.Script)
	ast, err := goja.Parse(bundle.ScriptName, script, parser.WithSourceMapLoader(loader))
	if err != nil {
		return nil, fmt.Errorf("syntax error: %w", err)
	}
	if mayNeedConstructor(script) {
		if fixed, changed := rewriteRegExps(script, ast); changed {
			if ast, err = goja.Parse(bundle.ScriptName, fixed, parser.WithSourceMapLoader(loader)); err != nil {
				return nil, fmt.Errorf("syntax error after rewriting regexp literals: %w", err)
			}
		}
	}
	prg, err := goja.CompileAST(ast, false)
	if err != nil {
		return nil, fmt.Errorf("compile: %w", err)
	}
	// CompiledWasm modules are compiled now, once for every isolate.
	for _, m := range b.Modules {
		if m.Type == bundle.RuleCompiledWasm {
			if err := wasm.Precompile(context.Background(), m.Bytes); err != nil {
				return nil, fmt.Errorf("%s: %w", m.Name, err)
			}
		}
	}
	return &Script{prg: prg, modules: b.Modules, hash: b.Hash}, nil
}

// Hash is the bundle's content hash.
func (s *Script) Hash() string { return s.hash }
