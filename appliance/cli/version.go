package cli

import (
	"fmt"
	"io"
	"runtime"

	"github.com/dwk/fleet/appliance/process/buildinfo"
)

func runVersion(_ []string, stdout, _ io.Writer) int {
	fmt.Fprintf(stdout, "dwk %s (schema %d, %s, %s/%s)\n", buildinfo.Version(), buildinfo.SchemaVersion, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return 0
}
