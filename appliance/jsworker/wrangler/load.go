package wrangler

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Options tune Load.
type Options struct {
	// Env is the environment to load (wrangler's --env); empty for the top
	// level, in which case ProcessEnv's CLOUDFLARE_ENV is used, as wrangler
	// uses it.
	Env string
	// EnvFiles are the .env files to read secrets from instead of the
	// defaults (wrangler's --env-file), relative to the configuration
	// file's directory. When set, .dev.vars is not read.
	EnvFiles []string
	// ProcessEnv is the process environment (nil for none). Load reads
	// CLOUDFLARE_ENV, CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV and
	// CLOUDFLARE_INCLUDE_PROCESS_ENV from it as wrangler does. When
	// secrets come from .env files and CLOUDFLARE_INCLUDE_PROCESS_ENV is
	// "true" or the file has a secrets key, the process environment is
	// taken as secrets too, and ${VAR} in the files resolves against it.
	ProcessEnv map[string]string
	// NoSecrets skips the secrets files: Project.Secrets stays empty. For
	// tools that read the configuration and must not hold secret values
	// (the Terraform data source).
	NoSecrets bool
}

// Load reads the wrangler configuration at path for the environment
// opts.Env, checks every key and returns the resolved project, with the
// problems that did not stop it in Project.Warnings. When anything is
// wrong, it returns every error found as Problems, one per line, each
// naming the file, the key path and what to fix.
func Load(path string, opts Options) (*Project, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("load wrangler configuration: %w", err)
	}
	file := filepath.Base(abs)
	src, err := os.ReadFile(abs)
	if err != nil {
		return nil, Problems{{File: file, Message: fmt.Sprintf("cannot read the file: %v", err)}}
	}
	tree, err := parseTree(abs, src)
	if err != nil {
		return nil, Problems{{File: file, Message: err.Error()}}
	}

	r := newReport(file)
	envName := opts.Env
	if envName == "" {
		envName = opts.ProcessEnv["CLOUDFLARE_ENV"]
	}
	envs := readEnvs(r, tree)
	l := resolve(r, abs, tree, envName, envs)
	if l != nil && !opts.NoSecrets {
		loadSecrets(r, l, opts)
	} else if l != nil {
		l.p.Secrets = map[string]string{}
	}
	if r.failed() {
		return nil, Problems(r.errors)
	}
	l.p.Warnings = r.warnings
	return l.p, nil
}

// resolve reads the top level and, when one is chosen, the environment.
// The top level is always read in full, so its mistakes are reported
// whichever environment is loaded, as wrangler reports them.
func resolve(r *report, abs string, tree map[string]any, envName string, envs map[string]map[string]any) *loader {
	top := &obj{r: r, m: tree}
	if envName == "" {
		l := newLoader(r, abs, "")
		l.read(top)
		l.finish(top)
		return l
	}
	newLoader(r, abs, envName).readTopForEnv(top)

	raw, ok := envs[envName]
	if !ok && len(envs) > 0 {
		r.errorf("env", "there is no environment %q; the file defines %s", envName, quoteList(sortedKeys(envs)))
		return nil
	}
	l := newLoader(r, abs, envName)
	l.nameSuffix = "-" + envName
	if !ok {
		// Wrangler only warns here, and deploys the top level under the
		// environment's name.
		r.warnf("", "there is no environment %q (the file defines none); using the top level as %q", envName, envName)
		view := &obj{r: r, m: tree}
		l.read(view)
		l.finish(view)
		return l
	}
	view := envView(r, tree, envName, raw)
	l.read(view)
	l.finish(view)
	return l
}

// readEnvs checks the env key: an object of environments, each an object.
func readEnvs(r *report, tree map[string]any) map[string]map[string]any {
	v, ok := tree["env"]
	if !ok {
		return nil
	}
	m, isMap := v.(map[string]any)
	if !isMap {
		r.errorf("env", "must be an object of environments, got %s", typeName(v))
		return nil
	}
	envs := map[string]map[string]any{}
	for _, name := range sortedKeys(m) {
		e, isMap := m[name].(map[string]any)
		if !isMap {
			r.errorf(join("env", name), "must be an object (the environment's keys), got %s", typeName(m[name]))
			continue
		}
		envs[name] = e
	}
	return envs
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// loader reads one view of the file (the top level, or an environment)
// into a Project, remembering where each binding and migration came from
// for the checks that span keys.
type loader struct {
	r   *report
	dir string
	env string
	p   *Project
	// nameSuffix is appended to a name the environment inherits from the
	// top level ("-<env>").
	nameSuffix string
	// topForEnv is set while the top level is read only to check it,
	// because an environment is loaded.
	topForEnv bool

	bindings   []bindingRef
	doPaths    []string // path of each DurableObjects entry
	migrations []string // path of each Migrations entry
	consumers  []string // path of each Queues.Consumers entry
	// secretsKey is set when the view has a secrets key, and
	// requiredPath is the path of its required list.
	secretsKey   bool
	requiredPath string
}

// bindingRef is where a name the worker sees in env was declared.
type bindingRef struct {
	name string
	path string
	// resource is false for vars and secrets, whose names need not be
	// JavaScript identifiers.
	resource bool
}

func newLoader(r *report, abs, env string) *loader {
	dir := filepath.Dir(abs)
	return &loader{r: r, dir: dir, env: env, p: &Project{
		ConfigPath: abs,
		Dir:        dir,
		Env:        env,
		Vars:       map[string]any{},
		Secrets:    map[string]string{},
		Build:      Build{Cwd: dir, WatchDirs: []string{filepath.Join(dir, "src")}},
		Bundle: Bundle{
			JSXFactory:  "React.createElement",
			JSXFragment: "React.Fragment",
			KeepNames:   true,
		},
	}}
}

// abs resolves a path written in the file against the file's directory.
func (l *loader) abs(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(l.dir, p)
}

// readTopForEnv checks the top level when an environment is loaded. Keys
// dwk refuses are not refused here when environments do not inherit
// them: the environment's own view refuses those it has.
func (l *loader) readTopForEnv(top *obj) {
	l.topForEnv = true
	l.read(top)
}

// read walks every known key of o, then reports the unknown ones.
func (l *loader) read(o *obj) {
	o.get("env") // read by readEnvs
	for _, k := range keys {
		switch k.status {
		case read:
			readers[k.name](l, o, k.name)
		case ignored:
			o.ignore(k.name, k.why)
		case refused:
			if l.topForEnv && k.scope == perEnv {
				o.get(k.name)
				continue
			}
			o.refuse(k.name, k.why)
		case meta:
			o.get(k.name)
		}
	}
	o.done()
}

// bind records a name the worker will see in env.
func (l *loader) bind(name, path string, resource bool) {
	if name == "" {
		return
	}
	l.bindings = append(l.bindings, bindingRef{name: name, path: path, resource: resource})
}
