package objtest

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

var _ worker.RPCStreamObject = (*probeObject)(nil)

// heldEnded records, by object id, how the context of a Hold call ended.
var heldEnded sync.Map

// StreamMethods is the probe's streaming table: Echo writes back what it
// reads, Generate writes as many pattern bytes as its argument (decimal)
// says, FailAfter writes 64 KiB and fails with code "late", Hold writes
// one line and waits for its context to end.
func (o *probeObject) StreamMethods() worker.StreamMethods {
	return worker.StreamMethods{
		"Echo": func(_ context.Context, in io.Reader, out io.Writer) error {
			_, err := io.Copy(out, in)
			return err
		},
		"Generate": func(_ context.Context, in io.Reader, out io.Writer) error {
			b, err := io.ReadAll(io.LimitReader(in, 32))
			if err != nil {
				return err
			}
			n, err := strconv.ParseInt(string(b), 10, 64)
			if err != nil {
				return &worker.RPCError{Code: worker.CodeBadArgument, Message: err.Error()}
			}
			var off int64
			_, err = io.Copy(out, io.LimitReader(pattern{off: &off}, n))
			return err
		},
		"FailAfter": func(_ context.Context, _ io.Reader, out io.Writer) error {
			if _, err := out.Write(make([]byte, 64<<10)); err != nil {
				return err
			}
			return &worker.RPCError{Code: "late", Message: "failed after writing"}
		},
		"Hold": func(ctx context.Context, _ io.Reader, out io.Writer) error {
			if _, err := io.WriteString(out, "first\n"); err != nil {
				return err
			}
			<-ctx.Done()
			heldEnded.Store(o.State.ID.String(), ctx.Err())
			return ctx.Err()
		},
	}
}

// pattern is an endless reader of the bytes 0, 1, ..., 250, 0, 1, ...
// (251 is prime, so the pattern never lines up with buffer sizes); off
// counts the bytes read so far.
type pattern struct{ off *int64 }

func (p pattern) Read(b []byte) (int, error) {
	n := 0
	for n < len(b) {
		c := copy(b[n:], patternBuf[*p.off%251:])
		n += c
		*p.off += int64(c)
	}
	return n, nil
}

// patternBuf holds the pattern from offset 0, long enough to copy from.
var patternBuf = func() []byte {
	b := make([]byte, 251*256)
	for i := range b {
		b[i] = byte(i % 251)
	}
	return b
}()

// patternSum is the SHA-256 of the first n bytes of the pattern.
func patternSum(n int64) [32]byte {
	h := sha256.New()
	var off int64
	io.Copy(h, io.LimitReader(pattern{off: &off}, n))
	var s [32]byte
	copy(s[:], h.Sum(nil))
	return s
}

// testRPCStream calls streaming methods through a stub: an argument and a
// result larger than worker.RPCMaxMessage (the bound of a buffered Call)
// stream through whole; the result reaches the caller while the
// method still runs; closing the result, or the caller's deadline, ends
// the method's context; and a method's error, before or after the stream
// began, reaches the reader as an *RPCError, never as a clean end.
func testRPCStream(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s := h.stub("stream")
	size := int64(worker.RPCMaxMessage + 1<<20)
	want := patternSum(size)

	var off int64
	res, err := worker.CallStream(ctx, s, "Echo", io.LimitReader(pattern{off: &off}, size))
	if err != nil {
		t.Fatal(err)
	}
	hs := sha256.New()
	n, err := io.Copy(hs, res)
	res.Close()
	if err != nil || n != size || !bytes.Equal(hs.Sum(nil), want[:]) {
		t.Fatalf("Echo of %d bytes: read %d, %v; content matches: %v", size, n, err, bytes.Equal(hs.Sum(nil), want[:]))
	}

	gen := int64(3<<20 + 17)
	res, err = worker.CallStream(ctx, s, "Generate", bytes.NewReader([]byte(strconv.FormatInt(gen, 10))))
	if err != nil {
		t.Fatal(err)
	}
	hs.Reset()
	n, err = io.Copy(hs, res)
	res.Close()
	if want := patternSum(gen); err != nil || n != gen || !bytes.Equal(hs.Sum(nil), want[:]) {
		t.Fatalf("Generate(%d): read %d, %v; content matches: %v", gen, n, err, bytes.Equal(hs.Sum(nil), want[:]))
	}

	// An error after the stream began replaces its end.
	res, err = worker.CallStream(ctx, s, "FailAfter", nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(res)
	res.Close()
	var re *worker.RPCError
	if len(got) != 64<<10 || !errors.As(err, &re) || re.Code != "late" || re.Method != "FailAfter" {
		t.Errorf("FailAfter: read %d bytes, then %v; want 65536 and an RPCError with code late", len(got), err)
	}
	// Errors before it began come from CallStream.
	for _, tt := range []struct {
		method string
		arg    io.Reader
		code   string
	}{{"Missing", nil, worker.CodeNoMethod}, {"Add", nil, worker.CodeNoMethod}} {
		if _, err := worker.CallStream(ctx, s, tt.method, tt.arg); !errors.As(err, &re) || re.Code != tt.code {
			t.Errorf("CallStream(%s): %v, want an RPCError with code %s", tt.method, err, tt.code)
		}
	}
	res, err = worker.CallStream(ctx, s, "Generate", bytes.NewReader([]byte("many")))
	if err == nil {
		_, err = io.ReadAll(res)
		res.Close()
	}
	if !errors.As(err, &re) || re.Code != worker.CodeBadArgument {
		t.Errorf("Generate(many): %v, want an RPCError with code %s", err, worker.CodeBadArgument)
	}

	// The first line arrives while the method still runs; closing the
	// result ends the method's context, and the next call runs.
	res, err = worker.CallStream(ctx, s, "Hold", nil)
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(res).ReadString('\n')
	if err != nil || line != "first\n" {
		t.Fatalf("Hold: first line %q, %v", line, err)
	}
	res.Close()
	waitHeld(t, h, s, context.Canceled)

	// The caller's deadline ends a call whose method waits.
	dctx, dcancel := context.WithTimeout(ctx, 300*time.Millisecond)
	res, err = worker.CallStream(dctx, s, "Hold", nil)
	if err == nil {
		_, err = io.ReadAll(res)
		res.Close()
	}
	dcancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Hold past the caller's deadline: %v, want context.DeadlineExceeded", err)
	}
	waitHeld(t, h, s, nil)
}

// waitHeld waits until the Hold call on s has ended with want (nil: any
// end), then checks that the object takes events again.
func waitHeld(t *testing.T, h *harness, s worker.Stub, want error) {
	t.Helper()
	key := s.ID().String()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if v, ok := heldEnded.LoadAndDelete(key); ok {
			if err, _ := v.(error); want != nil && !errors.Is(err, want) {
				t.Errorf("Hold's context ended with %v, want %v", err, want)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("Hold's context did not end within 10s of the caller going away")
		}
		time.Sleep(5 * time.Millisecond)
	}
	h.mustCall(s, func(context.Context, *probeObject) error { return nil })
}
