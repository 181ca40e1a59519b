package partition

import (
	"strings"
	"testing"
)

// TestAvailableNamesAMissingTool: without ip on PATH, Available says so
// and how to install it, instead of failing or skipping the caller.
func TestAvailableNamesAMissingTool(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	err := Available()
	if err == nil || !strings.Contains(err.Error(), "ip is not installed") || !strings.Contains(err.Error(), "iproute2") {
		t.Errorf("Available() = %v, want ip not installed, with how to install it", err)
	}
}
