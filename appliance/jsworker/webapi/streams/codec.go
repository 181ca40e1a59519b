package streams

import (
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// A codec is the Go half of a CompressionStream or DecompressionStream:
// write takes the next chunk and returns the output it has so far, end
// finishes the stream, close drops it. They are called on the loop, one
// at a time.
type codec interface {
	write(p []byte) ([]byte, error)
	end() ([]byte, error)
	close()
}

// The errors a DecompressionStream fails with, as workerd words them.
var (
	errDecompress = jsrt.Errorf("TypeError", "Decompression failed.")
	errTrailing   = jsrt.Errorf("TypeError", "Trailing bytes after end of compressed data")
	errIncomplete = jsrt.Errorf("TypeError", "Called close() on a decompression stream with incomplete data")
	errCodecDone  = jsrt.Errorf("TypeError", "The stream's codec is closed")
)

// newCodec makes the codec for format ("gzip", "deflate" or
// "deflate-raw").
func newCodec(format string, decompress bool) (codec, error) {
	switch format {
	case "gzip", "deflate", "deflate-raw":
	default:
		return nil, jsrt.Errorf("TypeError", "The compression format must be either 'deflate', 'deflate-raw' or 'gzip'.")
	}
	if decompress {
		return newInflater(format), nil
	}
	return newDeflater(format)
}

// sink collects a compressor's output until it is taken.
type sink struct{ b []byte }

func (s *sink) Write(p []byte) (int, error) {
	s.b = append(s.b, p...)
	return len(p), nil
}

// take hands the output over (JavaScript owns it from then on).
func (s *sink) take() []byte {
	b := s.b
	s.b = nil
	return b
}

// deflater compresses: the writers of compress/* are push-based.
type deflater struct {
	out sink
	w   io.WriteCloser
}

func newDeflater(format string) (*deflater, error) {
	d := &deflater{}
	var err error
	switch format {
	case "gzip":
		d.w, err = gzip.NewWriterLevel(&d.out, gzip.DefaultCompression)
	case "deflate":
		d.w, err = zlib.NewWriterLevel(&d.out, zlib.DefaultCompression)
	default:
		d.w, err = flate.NewWriter(&d.out, flate.DefaultCompression)
	}
	if err != nil {
		return nil, fmt.Errorf("make a %s compressor: %w", format, err)
	}
	return d, nil
}

func (d *deflater) write(p []byte) ([]byte, error) {
	if d.w == nil {
		return nil, errCodecDone
	}
	if _, err := d.w.Write(p); err != nil {
		return nil, err
	}
	return d.out.take(), nil
}

func (d *deflater) end() ([]byte, error) {
	if d.w == nil {
		return nil, errCodecDone
	}
	err := d.w.Close()
	d.w = nil
	return d.out.take(), err
}

func (d *deflater) close() { d.w = nil }

// inflater decompresses. Go's decompressors pull their input from a
// reader, so each runs on a goroutine of its own that the loop hands
// chunks to: write sends a chunk and waits until the goroutine has used
// it all and asks for more (or has finished), then takes the output.
// The goroutine ends when the input ends, when the stream is closed, or
// when the handle is garbage collected.
type inflater struct {
	core    *inflateCore
	started bool
	ended   bool // the goroutine has finished (core.err, core.finished set)
}

// inflateCore is what the goroutine uses; the handle (inflater) is not
// reachable from it, so that collecting the handle ends the goroutine.
type inflateCore struct {
	format   string
	in       chan []byte   // chunks; a nil chunk or a closed channel is the end
	idle     chan struct{} // the goroutine waits for input or has finished
	exited   chan struct{} // closed when the goroutine has returned
	stop     sync.Once
	cur      []byte // input not yet consumed
	out      []byte // output not yet taken
	finished bool   // the compressed data ended
	err      error
}

func newInflater(format string) *inflater {
	c := &inflateCore{format: format, in: make(chan []byte), idle: make(chan struct{}, 1), exited: make(chan struct{})}
	f := &inflater{core: c}
	runtime.AddCleanup(f, func(c *inflateCore) { c.stop.Do(func() { close(c.in) }) }, c)
	return f
}

func (f *inflater) write(p []byte) ([]byte, error) {
	c := f.core
	if len(p) == 0 {
		return nil, nil
	}
	if f.ended {
		if c.err == nil && c.finished {
			return nil, errTrailing
		}
		return nil, errCodecDone
	}
	chunk := append([]byte(nil), p...)
	if !f.started {
		f.started = true
		c.cur = chunk
		go c.run()
	} else {
		c.in <- chunk
	}
	<-c.idle
	return f.collect()
}

func (f *inflater) end() ([]byte, error) {
	c := f.core
	if !f.started {
		return nil, errIncomplete
	}
	if !f.ended {
		c.in <- nil
		<-c.idle
	}
	out, err := f.collect()
	if err == nil && !c.finished {
		err = errIncomplete
	}
	f.close()
	return out, err
}

// collect takes the output after the goroutine went idle, and its error
// if it finished.
func (f *inflater) collect() ([]byte, error) {
	c := f.core
	out := c.out
	c.out = nil
	if c.finished || c.err != nil {
		f.ended = true
	}
	if c.err != nil {
		return out, c.err
	}
	return out, nil
}

func (f *inflater) close() {
	f.ended = true
	f.core.stop.Do(func() { close(f.core.in) })
}

// run decompresses until the compressed data or the input ends.
func (c *inflateCore) run() {
	defer close(c.exited)
	defer func() { c.idle <- struct{}{} }()
	var r io.Reader
	var err error
	switch c.format {
	case "gzip":
		var zr *gzip.Reader
		if zr, err = gzip.NewReader(c); err == nil {
			zr.Multistream(false)
			r = zr
		}
	case "deflate":
		r, err = zlib.NewReader(c)
	default:
		r = flate.NewReader(c)
	}
	if err != nil {
		c.err = inflateError(err)
		return
	}
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		c.out = append(c.out, buf[:n]...)
		if err == io.EOF {
			c.finished = true
			if len(c.cur) > 0 {
				c.err = errTrailing
			}
			return
		}
		if err != nil {
			c.err = inflateError(err)
			return
		}
	}
}

// inflateError is what a decompressor's error means to the stream: input
// that ended too soon, or data that is not what the format says.
func inflateError(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return errIncomplete
	}
	return errDecompress
}

// ReadByte gives the decompressor its input a byte at a time (so that it
// reads no further than it needs), waiting for the next chunk when the
// current one is used up.
func (c *inflateCore) ReadByte() (byte, error) {
	if len(c.cur) == 0 && !c.more() {
		return 0, io.EOF
	}
	b := c.cur[0]
	c.cur = c.cur[1:]
	return b, nil
}

func (c *inflateCore) Read(p []byte) (int, error) {
	if len(c.cur) == 0 && !c.more() {
		return 0, io.EOF
	}
	n := copy(p, c.cur)
	c.cur = c.cur[n:]
	return n, nil
}

// more tells the loop the goroutine is idle and waits for a chunk; it
// reports false at the end of the input.
func (c *inflateCore) more() bool {
	c.idle <- struct{}{}
	chunk, ok := <-c.in
	if !ok || chunk == nil {
		return false
	}
	c.cur = chunk
	return true
}

var (
	_ codec        = (*deflater)(nil)
	_ codec        = (*inflater)(nil)
	_ flate.Reader = (*inflateCore)(nil)
)
