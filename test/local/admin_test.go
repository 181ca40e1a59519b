package local

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/test/procs"
)

var adminRE = regexp.MustCompile(`admin on (http://\S+)`)

func TestAdminAPIAndDrain(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "dwk.json")
	os.WriteFile(cfg, []byte(`{
	  "listen": {"public": "127.0.0.1:0", "admin": "127.0.0.1:0"},
	  "storage": {"data_dir": "`+filepath.Join(dir, "data")+`"},
	  "admin": {"token": {"env": "TEST_ADMIN_TOKEN"}},
	  "workers": [{"name": "counter", "bindings": {"objects": {"COUNTER": "Counter"}}}]
	}`), 0o600)
	p := procs.Start(t, "dwk serve", procs.Binary(t), []string{"TEST_ADMIN_TOKEN=s3cret"}, "serve", "--config", cfg)
	admin := p.WaitFor(adminRE, 60*time.Second)[1]
	url := p.WaitFor(readyRE, 10*time.Second)[1]

	if code := call(t, "POST", url+"/counter/m/increment", nil, nil); code != 200 {
		t.Fatalf("increment: %d", code)
	}
	resp, err := http.Get(admin + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	buf := make([]byte, 64<<10)
	for {
		n, err := resp.Body.Read(buf)
		sb.Write(buf[:n])
		if err != nil {
			break
		}
	}
	resp.Body.Close()
	if !strings.Contains(sb.String(), `dwk_http_requests_total{code="2xx",member="local",worker="counter"} 1`) {
		t.Errorf("metrics do not count the request:\n%s", sb.String())
	}

	for _, tok := range []string{"", "wrong"} {
		req, _ := http.NewRequest("POST", admin+"/admin/drain", nil)
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("drain with token %q: %d, want 401", tok, resp.StatusCode)
		}
	}

	st := procs.Start(t, "dwk status", procs.Binary(t), []string{"DWK_ADMIN_TOKEN=s3cret"}, "status", "--admin", admin)
	if code, _ := st.Wait(30 * time.Second); code != 0 || !strings.Contains(st.Output(), "local") || !strings.Contains(st.Output(), "ready") {
		t.Errorf("dwk status: exit %d\n%s", code, st.Output())
	}

	d := procs.Start(t, "dwk drain", procs.Binary(t), []string{"DWK_ADMIN_TOKEN=s3cret"}, "drain", "--admin", admin)
	if code, _ := d.Wait(60 * time.Second); code != 0 {
		t.Errorf("dwk drain: exit %d\n%s", code, d.Output())
	}
	if code, err := p.Wait(30 * time.Second); err != nil || code != 0 {
		t.Errorf("drained replica: exit %d, %v", code, err)
	}
}
