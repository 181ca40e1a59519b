package journal

import (
	"fmt"
	"os"
	"syscall"
)

// EnvStream is the variable systemd sets to "<device>:<inode>" of the
// stream a service's stdout and stderr are connected to.
const EnvStream = "JOURNAL_STREAM"

// Attached reports whether f (the process's stderr) is the journal stream
// systemd connected, per $JOURNAL_STREAM.
func Attached(f *os.File) bool {
	want := os.Getenv(EnvStream)
	if want == "" || f == nil {
		return false
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(int(f.Fd()), &st); err != nil {
		return false
	}
	return want == fmt.Sprintf("%d:%d", st.Dev, st.Ino)
}
