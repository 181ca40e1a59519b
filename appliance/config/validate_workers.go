package config

import (
	"fmt"
	"strings"

	"github.com/robfig/cron/v3"
)

var cronParser = cron.NewParser(cron.SecondOptional | cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

func (c *Config) validateWorkers(reg Registry, ps *Problems) {
	seenWorker := map[string]int{}
	seenRoute := map[string]string{}
	for i, w := range c.Workers {
		p := fmt.Sprintf("workers[%d]", i)
		switch {
		case w.Name == "":
			ps.add(p+".name", "is required (or give project, whose wrangler file names the worker)")
		case reg != nil && !reg.HasWorker(w.Name):
			ps.add(p+".name", "no worker %q is built into this binary", w.Name)
		}
		if w.Env != "" && w.Project == "" {
			ps.add(p+".env", "picks an environment of a project's wrangler file; set project too")
		}
		if j, dup := seenWorker[w.Name]; dup && w.Name != "" {
			ps.add(p+".name", "worker %q is already configured at workers[%d]", w.Name, j)
		}
		seenWorker[w.Name] = i
		for j, r := range w.Routes {
			rp := fmt.Sprintf("%s.routes[%d]", p, j)
			if !strings.HasPrefix(r, "/") {
				ps.add(rp, "must start with '/', not %q", r)
			}
			if other, dup := seenRoute[r]; dup {
				ps.add(rp, "route %q is already served by worker %q", r, other)
			}
			seenRoute[r] = w.Name
		}
		validateBindings(reg, p+".bindings", w.Bindings, ps)
		for j, expr := range w.Crons {
			if _, err := cronParser.Parse(expr); err != nil {
				ps.add(fmt.Sprintf("%s.crons[%d]", p, j), "invalid cron expression %q: %v (use 5 fields: minute hour day month weekday, UTC)", expr, err)
			}
		}
		for j, q := range w.Consumers {
			validateConsumer(fmt.Sprintf("%s.consumers[%d]", p, j), q, ps)
		}
	}
	// Service bindings name workers of this config.
	for i, w := range c.Workers {
		for _, name := range sortedMapKeys(w.Bindings.Services) {
			if target := w.Bindings.Services[name]; target == "" {
				ps.add(fmt.Sprintf("workers[%d].bindings.services.%s", i, name), "must name a worker")
			} else if _, ok := seenWorker[target]; !ok {
				ps.add(fmt.Sprintf("workers[%d].bindings.services.%s", i, name), "no worker %q in this config's workers", target)
			}
		}
	}
}

func validateBindings(reg Registry, p string, b Bindings, ps *Problems) {
	seen := map[string]string{}
	check := func(kind string, m map[string]string, valid func(string) string) {
		for _, name := range sortedMapKeys(m) {
			bp := fmt.Sprintf("%s.%s.%s", p, kind, name)
			if !bindingNameRE.MatchString(name) {
				ps.add(bp, "binding name must be an identifier (letters, digits, '_'), not %q", name)
			}
			if other, dup := seen[name]; dup {
				ps.add(bp, "binding name %q is also used in %s", name, other)
			}
			seen[name] = kind
			if msg := valid(m[name]); msg != "" {
				ps.add(bp, "%s", msg)
			}
		}
	}
	store := func(what string) func(string) string {
		return func(v string) string {
			if !storeNameRE.MatchString(v) {
				return fmt.Sprintf("%s name must be 1-63 of a-z, 0-9, '_', '-', starting with a letter or digit, not %q", what, v)
			}
			return ""
		}
	}
	check("d1", b.D1, store("database"))
	check("r2", b.R2, store("bucket"))
	check("kv", b.KV, store("namespace"))
	check("queues", b.Queues, store("queue"))
	check("objects", b.Objects, func(v string) string {
		if v == "" {
			return "object class name is required"
		}
		if reg != nil && !reg.HasObjectClass(v) {
			return fmt.Sprintf("no object class %q is built into this binary", v)
		}
		return ""
	})
	check("vars", b.Vars, func(string) string { return "" })
	check("services", b.Services, func(string) string { return "" })
	secrets := make(map[string]string, len(b.Secrets))
	for name := range b.Secrets {
		secrets[name] = ""
	}
	check("secrets", secrets, func(string) string { return "" })
	for _, name := range sortedMapKeys(secrets) {
		sp := fmt.Sprintf("%s.secrets.%s", p, name)
		ref := b.Secrets[name]
		if ref == nil {
			ps.add(sp, `a secret is a string or {"env": NAME} or {"file": PATH}, not null`)
			continue
		}
		v, err := ref.Resolve()
		switch {
		case err != nil:
			ps.add(sp, "%v", err)
		case v == "":
			ps.add(sp, "is empty")
		}
	}
}

func validateConsumer(p string, q Consumer, ps *Problems) {
	if !storeNameRE.MatchString(q.Queue) {
		ps.add(p+".queue", "must be a queue name, not %q", q.Queue)
	}
	if q.MaxBatchSize < 1 || q.MaxBatchSize > 100 {
		ps.add(p+".max_batch_size", "must be 1-100, not %d", q.MaxBatchSize)
	}
	if q.MaxConcurrency < 1 || q.MaxConcurrency > MaxMaxConcurrency {
		ps.add(p+".max_concurrency", "must be 1-%d batches at once per replica, not %d", MaxMaxConcurrency, q.MaxConcurrency)
	}
	if q.MaxBatchTimeout.D() <= 0 {
		ps.add(p+".max_batch_timeout", "must be positive")
	}
	if q.MaxRetries != nil && (*q.MaxRetries < 0 || *q.MaxRetries > 100) {
		ps.add(p+".max_retries", "must be 0-100, not %d", *q.MaxRetries)
	}
	if q.DeadLetterQueue != "" && q.DeadLetterQueue == q.Queue {
		ps.add(p+".dead_letter_queue", "must differ from the queue itself")
	}
	if q.RetryDelay.D() < 0 || q.RetryDelay.D() > 12*3600e9 {
		ps.add(p+".retry_delay", "must be between 0s and 12h")
	}
	if q.VisibilityTimeout.D() < 0 {
		ps.add(p+".visibility_timeout", "must be positive")
	}
}

func (c *Config) validateAffinity(ps *Problems) {
	for i, r := range c.Affinity.Rules {
		p := fmt.Sprintf("affinity.rules[%d]", i)
		if r.Namespace == "" {
			ps.add(p+".namespace", "is required (the object class the name belongs to)")
		}
		n := 0
		for _, s := range []string{r.Path, r.Header, r.Query} {
			if s != "" {
				n++
			}
		}
		if n != 1 {
			ps.add(p, "set exactly one of path, header and query")
		}
		if r.Path != "" && (!strings.HasPrefix(r.Path, "/") || strings.Count(r.Path, "{name}") != 1) {
			ps.add(p+".path", `must start with '/' and contain "{name}" once, like "/rooms/{name}/...", not %q`, r.Path)
		}
	}
}

func sortedMapKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sortStrings(out)
	return out
}
