package counter

import (
	"context"
	"io"
	"net/http"
	"strconv"

	"github.com/dwk/fleet/appliance/worker"
)

// Trailers of the stream route: how many bytes the result had, and the
// error that ended it ("" if none).
const (
	TrailerStreamBytes = "X-Stream-Bytes"
	TrailerStreamError = "X-Stream-Error"
)

var _ worker.RPCStreamObject = (*object)(nil)

// StreamMethods implements worker.RPCStreamObject: Echo writes back the
// bytes it reads; EchoThenFail does too, then fails with code
// "echo_failed".
func (o *object) StreamMethods() worker.StreamMethods {
	return worker.StreamMethods{
		"Echo": func(_ context.Context, in io.Reader, out io.Writer) error {
			_, err := io.Copy(out, in)
			return err
		},
		"EchoThenFail": func(_ context.Context, in io.Reader, out io.Writer) error {
			if _, err := io.Copy(out, in); err != nil {
				return err
			}
			return &worker.RPCError{Code: "echo_failed", Message: "failed after echoing"}
		},
	}
}

// stream streams ?bytes=N bytes of Pattern through counter ?to='s Echo
// (EchoThenFail with ?fail=1), a streaming RPC call wherever that counter
// is held, and copies the result to the client as it comes, with the
// trailers TrailerStreamBytes and TrailerStreamError.
func (o *object) stream(w http.ResponseWriter, r *http.Request) {
	to := r.URL.Query().Get("to")
	n, err := strconv.ParseInt(r.URL.Query().Get("bytes"), 10, 64)
	if to == "" || err != nil || n < 0 {
		http.Error(w, "stream needs ?to=<counter name>&bytes=<count>", http.StatusBadRequest)
		return
	}
	method := "Echo"
	if r.URL.Query().Get("fail") == "1" {
		method = "EchoThenFail"
	}
	ns := o.env.Object(Binding)
	res, err := worker.CallStream(r.Context(), ns.Get(ns.IDFromName(to)), method, io.LimitReader(&Pattern{}, n))
	if err != nil {
		fail(w, err)
		return
	}
	defer res.Close()
	w.Header().Set("Content-Type", "application/octet-stream")
	copied, err := io.Copy(w, res)
	w.Header().Set(http.TrailerPrefix+TrailerStreamBytes, strconv.FormatInt(copied, 10))
	if err != nil {
		w.Header().Set(http.TrailerPrefix+TrailerStreamError, err.Error())
	}
}

// Pattern is an endless reader of the bytes 0, 1, ..., 250, 0, 1, ...
// (251 is prime, so it never lines up with buffer sizes).
type Pattern struct{ off int64 }

func (p *Pattern) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = byte((p.off + int64(i)) % 251)
	}
	p.off += int64(len(b))
	return len(b), nil
}
