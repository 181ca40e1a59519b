package wrangler

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// load writes src as name in a fresh directory and loads it.
func load(t *testing.T, name, src string, opts Options) (*Project, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return Load(path, opts)
}

// problemLines returns the lines of a Problems error.
func problemLines(t *testing.T, err error) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	var ps Problems
	if !errors.As(err, &ps) {
		t.Fatalf("error %v is a %T, want Problems", err, err)
	}
	return strings.Split(ps.Error(), "\n")
}

// minimal is the smallest valid TOML project, for cases to add to.
const minimal = "name = \"w\"\nmain = \"index.js\"\ncompatibility_date = \"2025-01-15\"\n"

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name string
		file string
		src  string
		env  string
		want []string
	}{
		{"unknown key", "wrangler.toml", minimal + "kv_namspaces = []\n", "", []string{
			`wrangler.toml: unknown key "kv_namspaces" (did you mean "kv_namespaces"?)`,
		}},
		{"unknown nested key", "wrangler.toml", minimal + "[[d1_databases]]\nbinding = \"DB\"\ndatabase_name = \"d\"\ndatabse_id = \"x\"\n", "", []string{
			`wrangler.toml: d1_databases[0]: unknown key "databse_id" (did you mean "database_id"?)`,
		}},
		{"unknown key far from any", "wrangler.toml", minimal + "[build]\ncommand = \"make\"\nzzz = 1\n", "", []string{
			`wrangler.toml: build: unknown key "zzz" (known keys: command, cwd, watch_dir)`,
		}},
		{"refused key", "wrangler.toml", minimal + "[ai]\nbinding = \"AI\"\n", "", []string{
			`wrangler.toml: ai: not supported by dwk: there is no Workers AI on dwk`,
		}},
		{"refused key in environment", "wrangler.json", `{"name": "w", "main": "i.js", "compatibility_date": "2025-01-15",
			"env": {"staging": {"vectorize": [{"binding": "V", "index_name": "i"}]}}}`, "staging", []string{
			`wrangler.json: env.staging.vectorize: not supported by dwk: there is no Vectorize on dwk`,
		}},
		{"wrong type", "wrangler.toml", minimal + "[[d1_databases]]\nbinding = 1\ndatabase_name = \"d\"\n", "", []string{
			`wrangler.toml: d1_databases[0].binding: must be a string, got number`,
		}},
		{"required in environment", "wrangler.jsonc", `{"name": "w", "main": "i.js", "compatibility_date": "2025-01-15",
			"env": {"staging": {"d1_databases": [
				{"binding": "A", "database_name": "a"},
				{"binding": "B"}, // no name
			]}}}`, "staging", []string{
			`wrangler.jsonc: env.staging.d1_databases[1].database_name: is required: dwk keeps the database under this name`,
		}},
		{"every problem at once", "wrangler.toml", "name = 5\ncompatibility_date = \"15/01/2025\"\nbrowser = {binding = \"B\"}\n[[kv_namespaces]]\nid = \"\"\n", "", []string{
			`wrangler.toml: name: must be a string, got number`,
			`wrangler.toml: compatibility_date: must be a date written YYYY-MM-DD, such as "2025-01-15", got "15/01/2025"`,
			`wrangler.toml: kv_namespaces[0].binding: is required: the name the worker reads it by, as env.NAME`,
			`wrangler.toml: kv_namespaces[0].id: must not be empty: remove the key or give it a value`,
			`wrangler.toml: browser: not supported by dwk: there is no Browser Rendering on dwk`,
			`wrangler.toml: main: is required: the worker's entry module, such as "src/index.ts" (or set assets.directory alone for a worker that only serves files)`,
		}},
		{"name missing", "wrangler.json", `{"main": "i.js", "env": {"a": {}}}`, "a", []string{
			`wrangler.json: name: is required: the worker's name, such as "my-worker"`,
		}},
		{"name not lowercase", "wrangler.json", `{"main": "i.js", "env": {"a": {"name": "My Worker"}}}`, "a", []string{
			`wrangler.json: env.a.name: must be lowercase letters, digits, '-' and '_', starting with a letter, digit or '_' (wrangler's rule), got "My Worker"`,
		}},
		{"empty name, Python main", "wrangler.toml", "name = \"\"\nmain = \"src/entry.py\"\ncompatibility_date = \"2025-01-15\"\n", "", []string{
			`wrangler.toml: name: must not be empty: the worker's name, such as "my-worker"`,
			`wrangler.toml: main: not supported by dwk: "src/entry.py" is a Python worker; dwk runs JavaScript and TypeScript`,
		}},
		{"dates", "wrangler.toml", "name = \"w\"\nmain = \"i.js\"\ncompatibility_date = 2025-01-15\n[vars]\nSINCE = 2024-12-01\n", "", []string{
			`wrangler.toml: compatibility_date: must be a string, got a TOML date: write it in quotes, "2025-01-15"`,
			`wrangler.toml: vars.SINCE: is a TOML date (2024-12-01), which wrangler does not accept either: write it as a string, SINCE = "2024-12-01"`,
		}},
		{"en dash in date", "wrangler.toml", "name = \"w\"\nmain = \"i.js\"\ncompatibility_date = \"2025–01–15\"\n", "", []string{
			`wrangler.toml: compatibility_date: must use plain hyphens (-), not en or em dashes, got "2025–01–15"`,
		}},
		{"binding names", "wrangler.toml", minimal + "vars = { DB = \"x\" }\n[[d1_databases]]\nbinding = \"DB\"\ndatabase_name = \"d\"\n[[kv_namespaces]]\nbinding = \"MY-KV\"\n[[r2_buckets]]\nbinding = \"MY-KV\"\nbucket_name = \"Bad_Name\"\n", "", []string{
			`wrangler.toml: r2_buckets[0].bucket_name: must be lowercase letters, digits and '-', 3 to 63 characters, starting and ending with a letter or digit, got "Bad_Name"`,
			`wrangler.toml: kv_namespaces[0].binding: must be a JavaScript identifier (letters, digits, _ and $, not starting with a digit), got "MY-KV"`,
			`wrangler.toml: r2_buckets[0].binding: must be a JavaScript identifier (letters, digits, _ and $, not starting with a digit), got "MY-KV"`,
			`wrangler.toml: r2_buckets[0].binding: the name "MY-KV" is already used by kv_namespaces[0].binding: every binding, var and secret needs its own name`,
			`wrangler.toml: d1_databases[0].binding: the name "DB" is already used by vars.DB: every binding, var and secret needs its own name`,
		}},
		{"queues", "wrangler.toml", minimal + "[[queues.consumers]]\nqueue = \"q\"\ntype = \"http_pull\"\nmax_batch_size = 101\nmax_retries = 1.5\n[[queues.consumers]]\nqueue = \"q\"\n[[queues.producers]]\nbinding = \"Q\"\n", "", []string{
			`wrangler.toml: queues.producers[0].queue: is required: the name of the queue to send to`,
			`wrangler.toml: queues.consumers[0].type: must be "worker" (wrangler configures no other consumer type here), got "http_pull"`,
			`wrangler.toml: queues.consumers[0].max_batch_size: must be a whole number from 1 to 100, got 101`,
			`wrangler.toml: queues.consumers[0].max_retries: must be a whole number from 0 to 100, got 1.5`,
			`wrangler.toml: queues.consumers[1].queue: queue "q" already has a consumer at queues.consumers[0].queue: a queue has one consumer`,
		}},
		{"durable objects", "wrangler.toml", minimal + "[[durable_objects.bindings]]\nname = \"A\"\nclass_name = \"A\"\nenvironment = \"prod\"\n[[durable_objects.bindings]]\nname = \"B\"\nclass_name = \"Gone\"\n[[migrations]]\ntag = \"v1\"\nnew_classes = [\"Gone\"]\n[[migrations]]\ntag = \"v2\"\ndeleted_classes = [\"Gone\"]\n", "", []string{
			`wrangler.toml: durable_objects.bindings[0].environment: needs script_name: environment names the environment of the worker script_name names`,
			`wrangler.toml: durable_objects.bindings[1].class_name: binds class "Gone", which migration "v2" deleted: remove the binding, or bind a class that exists`,
		}},
		{"durable_objects without bindings", "wrangler.toml", minimal + "[durable_objects]\n", "", []string{
			`wrangler.toml: durable_objects: needs a "bindings" array, as wrangler requires`,
		}},
		{"migrations", "wrangler.toml", minimal + "[[migrations]]\ntag = \"v1\"\nnew_classes = [\"A\"]\ntransferred_classes = [{from = \"X\", from_script = \"s\", to = \"Y\"}]\n[[migrations]]\ntag = \"v1\"\n", "", []string{
			`wrangler.toml: migrations[0].transferred_classes: not supported by dwk: dwk cannot move a class's objects between workers`,
			`wrangler.toml: migrations[1]: tag "v1" is already used by migrations[0]: every migration needs its own tag`,
		}},
		{"rename of a class never created", "wrangler.toml", minimal + "[[migrations]]\ntag = \"v1\"\nrenamed_classes = [{from = \"Old\", to = \"New\"}]\n", "", []string{
			`wrangler.toml: migrations[0]: renames class "Old", which no earlier migration created (or it was already renamed or deleted)`,
		}},
		{"rules", "wrangler.toml", minimal + "[[rules]]\ntype = \"PythonModule\"\nglobs = [\"**/*.py\"]\n[[rules]]\ntype = \"Wasm\"\n", "", []string{
			`wrangler.toml: rules[0].type: not supported by dwk: "PythonModule" rules are for Python workers; dwk runs JavaScript and TypeScript`,
			`wrangler.toml: rules[1].type: must be one of "ESModule", "CommonJS", "Text", "Data", "CompiledWasm", got "Wasm"`,
			`wrangler.toml: rules[1].globs: is required: the file patterns the rule matches, such as ["**/*.txt"]`,
		}},
		{"assets", "wrangler.json", `{"name": "w", "compatibility_date": "2025-01-15", "assets": {"directory": "dist", "binding": "ASSETS",
			"not_found_handling": "404", "run_worker_first": "yes", "experimental_serve_directly": false}}`, "", []string{
			`wrangler.json: assets.not_found_handling: must be one of "none", "404-page", "single-page-application", got "404"`,
			`wrangler.json: assets.run_worker_first: must be a boolean or an array of route patterns, got string`,
			`wrangler.json: assets.experimental_serve_directly: conflicts with run_worker_first: remove experimental_serve_directly, which run_worker_first replaced`,
			`wrangler.json: assets.binding: needs main: a worker that only serves files has no code to read the binding "ASSETS" (wrangler refuses this too)`,
		}},
		{"unknown environment", "wrangler.toml", minimal + "[env.staging]\n[env.production]\n", "prod", []string{
			`wrangler.toml: env: there is no environment "prod"; the file defines "production", "staging"`,
		}},
		{"environment not an object", "wrangler.json", `{"name": "w", "main": "i.js", "env": {"staging": true}}`, "", []string{
			`wrangler.json: env.staging: must be an object (the environment's keys), got boolean`,
		}},
		{"env not an object", "wrangler.json", `{"name": "w", "main": "i.js", "env": 5}`, "", []string{
			`wrangler.json: env: must be an object of environments, got number`,
		}},
		{"keys wrangler v4 removed", "wrangler.toml", minimal + "legacy_env = true\nnode_compat = true\n", "", []string{
			`wrangler.toml: node_compat: not supported by dwk: wrangler v4 removed it too; add "nodejs_compat" to compatibility_flags instead`,
			`wrangler.toml: legacy_env: not supported by dwk: wrangler v4 removed it too; remove it: each environment is its own worker named "<name>-<env>"`,
		}},
		{"secrets key", "wrangler.toml", minimal + "[secrets]\nrequired = \"API_KEY\"\n", "", []string{
			`wrangler.toml: secrets.required: must be an array of strings, got string`,
		}},
		{"migrations_pattern outside migrations_dir", "wrangler.toml", minimal + "[[d1_databases]]\nbinding = \"DB\"\ndatabase_name = \"d\"\nmigrations_pattern = \"sql/*.sql\"\n", "", []string{
			`wrangler.toml: d1_databases[0].migrations_pattern: must start with migrations_dir followed by /, and migrations_dir must be set, got "sql/*.sql"`,
		}},
		{"types", "wrangler.json", `{"name": "w", "main": "i.js", "compatibility_date": "2025-01-15",
			"minify": "yes", "define": ["X"], "alias": {"a": 1}, "jsx_factory": "",
			"compatibility_flags": ["ok", 2], "kv_namespaces": {"binding": "KV"},
			"triggers": [], "vars": {"LIST": [1, {"when": 3}]},
			"queues": {"consumers": [{"queue": "q", "max_retries": "3"}]},
			"services": [{"binding": "S", "service": "s", "props": {"n": 1}, "dev": {}}],
			"r2_buckets": [{"binding": "R", "bucket_name": "files", "preview_bucket_name": "X"}]}`, "", []string{
			`wrangler.json: compatibility_flags[1]: must be a string, got number`,
			`wrangler.json: kv_namespaces: must be an array of objects, got object`,
			`wrangler.json: r2_buckets[0].preview_bucket_name: must be lowercase letters, digits and '-', 3 to 63 characters, starting and ending with a letter or digit, got "X"`,
			`wrangler.json: queues.consumers[0].max_retries: must be a number, got string`,
			`wrangler.json: services[0].dev: not supported by dwk: miniflare plugins do not run on dwk`,
			`wrangler.json: triggers: must be an object, got array`,
			`wrangler.json: define: must be an object of strings, got array`,
			`wrangler.json: alias.a: must be a string, got number`,
			`wrangler.json: jsx_factory: must not be empty: remove the key or give it a value`,
			`wrangler.json: minify: must be a boolean (true or false), got string`,
		}},
		{"an entry that is not an object", "wrangler.toml", minimal + "d1_databases = [\"DB\"]\n", "", []string{
			`wrangler.toml: d1_databases[0]: must be an object, got string`,
		}},
		{"a date inside a var", "wrangler.toml", minimal + "[vars]\nLIST = [1, { when = 2025-01-01 }]\n", "", []string{
			`wrangler.toml: vars.LIST: is a TOML date (2025-01-01), which wrangler does not accept either: write it as a string, LIST = "2025-01-01"`,
		}},
		{"TOML syntax", "wrangler.toml", "name = \"w\"\nmain = \n", "", []string{
			`wrangler.toml: line 2: expected value but found '\n' instead`,
		}},
		{"JSON syntax", "wrangler.json", "{\n  \"name\": \"w\"\n  \"main\": \"i.js\"\n}", "", []string{
			`wrangler.json: line 3, column 3: invalid character '"' after object key:value pair`,
		}},
		{"unclosed comment", "wrangler.jsonc", "{\n /* open\n}", "", []string{
			`wrangler.jsonc: line 2, column 2: a /* comment is never closed with */`,
		}},
		{"not an object", "wrangler.json", `["name"]`, "", []string{
			`wrangler.json: the file must hold one JSON object, got array`,
		}},
		{"text after the object", "wrangler.json", `{"name": "w"} {}`, "", []string{
			`wrangler.json: line 1, column 15: unexpected text after the closing }`,
		}},
		{"unknown format", "wrangler.yaml", "name: w\n", "", []string{
			`wrangler.yaml: cannot tell the format of "wrangler.yaml": name it wrangler.toml, wrangler.json or wrangler.jsonc`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := load(t, tt.file, tt.src, Options{Env: tt.env})
			if err == nil {
				t.Fatalf("Load succeeded with warnings %q; want errors %q", p.Warnings, tt.want)
			}
			if d := diff(problemLines(t, err), tt.want); d != "" {
				t.Errorf("errors%s\nall: %v", d, err)
			}
		})
	}
}
