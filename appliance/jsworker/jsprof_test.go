package jsworker_test

import (
	"os"
	"testing"

	"github.com/dop251/goja"
)

// TestMain starts goja's JavaScript profiler when DWK_JS_PROFILE names a
// file, for looking at where a benchmark's JavaScript time goes.
func TestMain(m *testing.M) {
	if p := os.Getenv("DWK_JS_PROFILE"); p != "" {
		f, err := os.Create(p)
		if err == nil {
			goja.StartProfile(f)
			code := m.Run()
			goja.StopProfile()
			f.Close()
			os.Exit(code)
		}
	}
	os.Exit(m.Run())
}
