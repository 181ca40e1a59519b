package wrangler

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// loadSecrets fills Project.Secrets the way wrangler dev does
// (getVarsForDev in wrangler's dev-vars.ts):
//
//   - .dev.vars.<env> when an environment is loaded and that file exists,
//     else .dev.vars; one file, not both. Values are taken as written.
//   - Only when neither exists (and CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV
//     is not "false"): .env, .env.local, .env.<env>, .env.<env>.local,
//     later files overriding earlier ones, or opts.EnvFiles instead;
//     ${VAR} references are expanded. The process environment joins in
//     when CLOUDFLARE_INCLUDE_PROCESS_ENV is "true" or the file has a
//     secrets key.
//   - With a secrets key, only the names in secrets.required and the
//     names of vars are taken, and a required name nowhere to be found is
//     a warning.
//
// A secret and a var of the same name: the secret wins (see EnvVars), as
// in wrangler dev.
func loadSecrets(r *report, l *loader, opts Options) {
	readDotEnv, err1 := envBool(opts.ProcessEnv, "CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV", true)
	includeProcess, err2 := envBool(opts.ProcessEnv, "CLOUDFLARE_INCLUDE_PROCESS_ENV", false)
	for _, err := range []error{err1, err2} {
		if err != nil {
			r.errors = append(r.errors, Problem{Message: err.Error()})
		}
	}
	p := l.p
	var loaded map[string]string
	if len(opts.EnvFiles) == 0 {
		names := []string{".dev.vars"}
		if p.Env != "" {
			names = []string{".dev.vars." + p.Env, ".dev.vars"}
		}
		for _, name := range names {
			if vars, ok := readDotenvFile(r, filepath.Join(p.Dir, name)); ok {
				p.SecretsFrom = []string{filepath.Join(p.Dir, name)}
				loaded = vars.vals
				break
			}
		}
	}
	if loaded == nil && readDotEnv {
		loaded = loadDotEnvFiles(r, l, opts, includeProcess || l.secretsKey)
	}
	if !l.secretsKey {
		for k, v := range loaded {
			p.Secrets[k] = v
		}
		return
	}
	required := map[string]bool{}
	for _, name := range p.RequiredSecrets {
		required[name] = true
	}
	for k, v := range loaded {
		if _, isVar := p.Vars[k]; isVar || required[k] {
			p.Secrets[k] = v
		}
	}
	for _, name := range p.RequiredSecrets {
		if _, ok := p.Secrets[name]; !ok {
			r.warnf(l.requiredPath, "secret %q is required but no secrets file sets it: add it to .dev.vars", name)
		}
	}
}

// loadDotEnvFiles reads the .env files in order, later ones overriding
// earlier ones, and expands them.
func loadDotEnvFiles(r *report, l *loader, opts Options, includeProcess bool) map[string]string {
	p := l.p
	names := opts.EnvFiles
	if len(names) == 0 {
		names = []string{".env", ".env.local"}
		if p.Env != "" {
			names = append(names, ".env."+p.Env, ".env."+p.Env+".local")
		}
	}
	merged := newEnvVars()
	for _, name := range names {
		path := l.abs(name)
		vars, ok := readDotenvFile(r, path)
		if !ok {
			continue
		}
		p.SecretsFrom = append(p.SecretsFrom, path)
		for _, k := range vars.keys {
			merged.set(k, vars.vals[k])
		}
	}
	var processEnv map[string]string
	if includeProcess {
		processEnv = opts.ProcessEnv
	}
	return expandDotenv(merged, processEnv)
}

// readDotenvFile parses the file at path; false when it does not exist
// or cannot be read (then an error says why).
func readDotenvFile(r *report, path string) (*envVars, bool) {
	src, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	if err != nil {
		r.errors = append(r.errors, Problem{File: filepath.Base(path), Message: fmt.Sprintf("cannot read the secrets file: %v", err)})
		return nil, false
	}
	return parseDotenv(string(src)), true
}

// envBool reads a boolean setting from the process environment as
// wrangler does: "true" or "false" in any case, def when unset.
func envBool(env map[string]string, name string, def bool) (bool, error) {
	v, ok := env[name]
	if !ok {
		return def, nil
	}
	switch strings.ToLower(v) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return def, fmt.Errorf("%s must be \"true\" or \"false\", got %q", name, v)
}

// EnvVars returns what the worker's env holds besides bindings: Vars with
// Secrets laid over them, a secret replacing a var of the same name, as
// in wrangler dev.
func (p *Project) EnvVars() map[string]any {
	out := make(map[string]any, len(p.Vars)+len(p.Secrets))
	for k, v := range p.Vars {
		out[k] = v
	}
	for k, v := range p.Secrets {
		out[k] = v
	}
	return out
}
