// Package local tests `dwk serve` in local mode as a user runs it: the real
// binary, the reference workers, restarts, and a second process on the same
// data directory.
package local

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/dwk/fleet/test/procs"
	"github.com/dwk/fleet/test/wait"
)

var readyRE = regexp.MustCompile(`ready on (http://\S+)`)

// serve starts dwk serve on dir and returns its base URL.
func serve(t *testing.T, dir string) (*procs.Proc, string) {
	t.Helper()
	p := procs.Start(t, "dwk serve", procs.Binary(t), nil, "serve", "--data-dir", dir, "--listen", "127.0.0.1:0")
	m := p.WaitFor(readyRE, 60*time.Second)
	return p, m[1]
}

// stop sends SIGTERM and expects a clean exit.
func stop(t *testing.T, p *procs.Proc) {
	t.Helper()
	if err := p.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	code, err := p.Wait(40 * time.Second)
	if err != nil || code != 0 {
		t.Fatalf("dwk serve exit = %d, %v; output:\n%s", code, err, p.Output())
	}
}

func call(t *testing.T, method, url string, body io.Reader, out any) int {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if out != nil && resp.StatusCode < 300 {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %v in %q", method, url, err, b)
		}
	}
	if resp.StatusCode >= 300 {
		t.Logf("%s %s: %s %s", method, url, resp.Status, b)
	}
	return resp.StatusCode
}

func TestCounterSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	p, url := serve(t, dir)
	var got struct{ Value int64 }
	for range 5 {
		if code := call(t, "POST", url+"/counter/restart/increment", nil, &got); code != 200 {
			t.Fatalf("increment: %d", code)
		}
	}
	if got.Value != 5 {
		t.Fatalf("value after 5 increments = %d", got.Value)
	}
	stop(t, p)
	_, url = serve(t, dir)
	call(t, "GET", url+"/counter/restart", nil, &got)
	if got.Value != 5 {
		t.Errorf("value after restart = %d, want 5", got.Value)
	}
}

func TestAlarmFiresAfterRestart(t *testing.T) {
	dir := t.TempDir()
	p, url := serve(t, dir)
	if code := call(t, "POST", url+"/counter/alarmed/alarm?in=3s", nil, nil); code != 200 {
		t.Fatalf("set alarm: %d", code)
	}
	stop(t, p)
	_, url = serve(t, dir)
	wait.Within(t, 30*time.Second, "the alarm set before the restart to fire after it", func() bool {
		var st struct{ Fired int64 }
		call(t, "GET", url+"/counter/alarmed/alarm", nil, &st)
		return st.Fired >= 1
	})
}

func TestSecondServeRefused(t *testing.T) {
	dir := t.TempDir()
	serve(t, dir)
	p := procs.Start(t, "second dwk serve", procs.Binary(t), nil, "serve", "--data-dir", dir, "--listen", "127.0.0.1:0")
	code, err := p.Wait(30 * time.Second)
	if err != nil || code == 0 {
		t.Fatalf("second serve: exit %d, %v", code, err)
	}
	if out := p.Output(); !strings.Contains(out, "locked by another dwk serve") {
		t.Errorf("second serve did not say why:\n%s", out)
	}
}

func TestChatRoomBroadcast(t *testing.T) {
	_, url := serve(t, t.TempDir())
	ws := strings.Replace(url, "http://", "ws://", 1) + "/chat/rooms/lobby/ws?user="
	alice, _, err := websocket.DefaultDialer.Dial(ws+"alice", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer alice.Close()
	bob, _, err := websocket.DefaultDialer.Dial(ws+"bob", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer bob.Close()
	if err := alice.WriteJSON(map[string]string{"text": "hi bob"}); err != nil {
		t.Fatal(err)
	}
	if err := bob.WriteJSON(map[string]string{"text": "hi alice"}); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]*websocket.Conn{"alice": alice, "bob": bob} {
		want := map[string]bool{"alice: hi bob": false, "bob: hi alice": false}
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		for seen := 0; seen < 2; {
			var m struct{ Type, User, Text string }
			if err := c.ReadJSON(&m); err != nil {
				t.Fatalf("%s read: %v", name, err)
			}
			k := m.User + ": " + m.Text
			if m.Type == "message" && !want[k] {
				if _, ok := want[k]; ok {
					want[k] = true
					seen++
				}
			}
		}
	}
	// History is in D1, and every message reaches the notification queue's
	// consumer.
	var hist []struct{ User, Text string }
	call(t, "GET", url+"/chat/rooms/lobby/messages", nil, &hist)
	if len(hist) != 2 {
		t.Errorf("history has %d messages, want 2: %+v", len(hist), hist)
	}
	var st struct{ Messages, Notifications int64 }
	wait.Within(t, 30*time.Second, "2 notifications", func() bool {
		call(t, "GET", url+"/chat/stats", nil, &st)
		return st.Notifications == 2
	})
}

func TestChatAttachment(t *testing.T) {
	_, url := serve(t, t.TempDir())
	body := bytes.Repeat([]byte("attachment "), 1000)
	var m struct {
		Attachment struct{ URL string }
	}
	if code := call(t, "POST", url+"/chat/rooms/files/attachments?user=ann&name=notes.txt", bytes.NewReader(body), &m); code != 200 {
		t.Fatalf("upload: %d", code)
	}
	resp, err := http.Get(url + m.Attachment.URL)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Equal(got, body) {
		t.Errorf("download returned %d bytes, want %d", len(got), len(body))
	}
}

func TestValidateListsProblems(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dwk.json")
	os.WriteFile(path, []byte(`{"fleet": {"name": "Bad Name", "secrt": 1}, "workers": [{"name": "nope"}]}`), 0o600)
	p := procs.Start(t, "dwk validate", procs.Binary(t), nil, "validate", path)
	code, _ := p.Wait(30 * time.Second)
	out := p.Output()
	if code != 1 || !strings.Contains(out, "fleet.secrt: unknown field") {
		t.Fatalf("validate of unknown field: exit %d\n%s", code, out)
	}
	os.WriteFile(path, []byte(`{"fleet": {"name": "Bad Name"}, "workers": [{"name": "nope"}], "drain": {"timeout": "-1s"}}`), 0o600)
	p = procs.Start(t, "dwk validate", procs.Binary(t), nil, "validate", path)
	code, _ = p.Wait(30 * time.Second)
	out = p.Output()
	for _, want := range []string{"fleet.name:", `workers[0].name: no worker "nope"`, "drain.timeout:"} {
		if !strings.Contains(out, want) {
			t.Errorf("validate output lacks %q:\n%s", want, out)
		}
	}
	if code != 1 {
		t.Errorf("exit = %d, want 1", code)
	}
}
