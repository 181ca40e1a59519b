package dwkconns

import (
	"io"
	"net"
	"testing"
)

func TestConnectionsHideReadFromAndWriteTo(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	wrapped := Wrapper{}.WrapListener(ln)
	defer wrapped.Close()
	go func() {
		if c, err := net.Dial("tcp", ln.Addr().String()); err == nil {
			defer c.Close()
			io.Copy(io.Discard, c)
		}
	}()
	c, err := wrapped.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, ok := c.(io.ReaderFrom); ok {
		t.Error("the accepted connection implements io.ReaderFrom")
	}
	if _, ok := c.(io.WriterTo); ok {
		t.Error("the accepted connection implements io.WriterTo")
	}
	cw, ok := c.(interface{ CloseWrite() error })
	if !ok {
		t.Fatal("a TCP connection lost CloseWrite")
	}
	if err := cw.CloseWrite(); err != nil {
		t.Errorf("CloseWrite: %v", err)
	}
}
