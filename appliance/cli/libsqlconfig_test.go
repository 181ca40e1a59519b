package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLibSQLConfigFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name, file string
		args       []string
		code       int
		want       string
	}{
		{"valid", `{"http-listen-addr": "127.0.0.1:0", "db-path": "` + dir + `/db", "max-idle-connections": 10, "enable-namespaces": true}`, nil, 0, "configuration OK"},
		{"unknown key", `{"http-listen-adr": "127.0.0.1:0"}`, nil, 2, `"http-listen-adr" is not a dwk libsql flag`},
		{"bad value", `{"max-idle-connections": "many"}`, nil, 2, `"max-idle-connections"`},
		// Beyond loopback without keys is refused; the command line wins
		// over the file, so this passes.
		{"command line wins", `{"http-listen-addr": "0.0.0.0:0"}`, []string{"--http-listen-addr", "127.0.0.1:0"}, 0, "configuration OK"},
		{"file checked", `{"http-listen-addr": "0.0.0.0:0"}`, nil, 1, "refusing to serve the user API"},
		{"jwt key file read", `{"auth-jwt-key-file": "` + dir + `/missing.pem"}`, nil, 1, "JWT key file"},
		{"secret from the file", `{"backup-s3-bucket": "b", "backup-s3-access-key": "k", "backup-s3-secret-key": "s"}`, nil, 0, "configuration OK"},
		{"no secret", `{"backup-s3-bucket": "b", "backup-s3-access-key": "k"}`, nil, 2, "needs the secret key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(envBackupSecretKey, "")
			f := write(strings.ReplaceAll(tc.name, " ", "-")+".json", tc.file)
			var out, errb bytes.Buffer
			code := libsqlMain(append([]string{"--check", "--config", f}, tc.args...), &out, &errb)
			got := out.String() + errb.String()
			if code != tc.code || !strings.Contains(got, tc.want) {
				t.Errorf("exit %d, output %q; want exit %d and %q", code, got, tc.code, tc.want)
			}
		})
	}
}
