package objcentral

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/fleet/objectid"
	"github.com/dwk/fleet/appliance/fleet/peerlink"
	"github.com/dwk/fleet/appliance/fleet/protocol"
	"github.com/dwk/fleet/appliance/worker"
)

// TestForwardLoopAnswersRetry: a request that reached this replica after
// MaxHops forwards and would be forwarded again ran nowhere, so it gets
// the front door's retry answer (replayed later, by then to the holder),
// and is not sent on.
func TestForwardLoopAnswersRetry(t *testing.T) {
	id := testObjectID(7, "x")
	f := testForwarder(t, &http.Transport{DialContext: func(context.Context, string, string) (net.Conn, error) {
		t.Error("a request past MaxHops was forwarded again")
		return nil, errors.New("not dialled in this test")
	}})
	ctx := context.WithValue(context.Background(), forwardKey{}, forwardMark{ns: id.Namespace(), id: objectid.ID(id.Bytes()), hops: MaxHops})
	r := httptest.NewRequest(http.MethodPost, "/increment", nil).WithContext(ctx)
	w := httptest.NewRecorder()
	f.Forward(w, r, id, "elsewhere:1")
	if !protocol.IsRetry(w.Code, w.Header()) || w.Header().Get("Retry-After") == "" {
		t.Errorf("answer %d %v; want the retry answer with Retry-After", w.Code, w.Header())
	}
}

// TestForwardToAHolderThatWentAwayMayHaveRun: a request the holder read
// and then dropped without answering (it was killed mid-request) may have
// run, so it gets 502, not a retry answer or a 503 a client would take as
// "nothing ran".
func TestForwardToAHolderThatWentAwayMayHaveRun(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		// Read the request, then go away without a word.
		c.SetDeadline(time.Now().Add(10 * time.Second))
		c.Read(make([]byte, 4096))
		c.(*net.TCPConn).SetLinger(0)
		c.Close()
	}()
	f := testForwarder(t, &http.Transport{})
	r := httptest.NewRequest(http.MethodPost, "/increment", nil)
	w := httptest.NewRecorder()
	f.Forward(w, r, testObjectID(8, "y"), ln.Addr().String())
	if w.Code != http.StatusBadGateway || protocol.IsRetry(w.Code, w.Header()) {
		t.Errorf("answer %d %v %q; want 502, not a retry answer", w.Code, w.Header(), w.Body.String())
	}
}

// testForwarder is a forwarder over tr with a test fleet's link.
func testForwarder(t *testing.T, tr *http.Transport) *Forwarder {
	t.Helper()
	link, err := peerlink.New(peerlink.Config{Secret: []byte("s"), Fleet: "f", Member: "m"})
	if err != nil {
		t.Fatal(err)
	}
	return NewForwarder(ForwarderConfig{Link: link, Transport: tr})
}

// testObjectID is the id of object name of class C whose first byte is b.
func testObjectID(b byte, name string) worker.ObjectID {
	var raw [worker.ObjectIDSize]byte
	raw[0] = b
	return worker.NewObjectID("C", name, raw)
}
