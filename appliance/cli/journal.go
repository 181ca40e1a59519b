package cli

import (
	"io"
	"log/slog"
	"os"

	"github.com/dwk/fleet/appliance/process/journal"
)

// toJournal returns a handler logging to the journal when w is the stream
// systemd connected to it, else nil. fallback takes what the journal
// refuses.
func toJournal(w io.Writer, level slog.Leveler, fields map[string]string, fallback slog.Handler) slog.Handler {
	f, ok := w.(*os.File)
	if !ok || !journal.Attached(f) {
		return nil
	}
	h, err := journal.New(journal.Options{Level: level, Fields: fields, Fallback: fallback})
	if err != nil {
		return nil
	}
	return h
}

// journalFields are the fields every record of member carries.
func journalFields(member string) map[string]string {
	if member == "" {
		return nil
	}
	return map[string]string{"member": member}
}
