package libsql

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/dwk/fleet/appliance/libsql/backup"
)

// prepareBackup builds the replicator over the namespace store. It
// refuses a data dir without namespaces when the backup prefix already
// holds a backup, unless BackupAllowEmpty: after a lost disk the data must
// be restored first, or the new, empty history would be what a restore
// without --at returns.
func (s *Server) prepareBackup() error {
	cfg := s.cfg.Backup
	ctx, cancel := context.WithTimeout(s.ctx, cfg.WithDefaults().Timeout)
	defer cancel()
	client, err := backup.NewClient(ctx, cfg)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	if !s.cfg.BackupAllowEmpty && !hasNamespaces(s.nss.root) {
		found, err := backup.HasBackup(ctx, client, cfg)
		if err != nil {
			return fmt.Errorf("backup: look for an existing backup: %w", err)
		}
		if found {
			return fmt.Errorf("data dir %s holds no namespace but s3://%s/%s holds a backup: restore it first with `dwk libsql restore --to %s` (same --backup-s3-* flags), or pass --backup-allow-empty to start an empty server whose new generations supersede that backup",
				s.cfg.DBPath, cfg.Bucket, cfg.WithDefaults().Prefix, s.cfg.DBPath)
		}
	}
	s.backup = backup.New(cfg, client, backupSource{s.nss}, s.log, s.cfg.Now)
	s.nss.backup = s.backup
	return nil
}

// hasNamespaces reports whether root holds a namespace directory.
func hasNamespaces(root string) bool {
	entries, err := os.ReadDir(root)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") && ValidateNamespace(e.Name()) == nil {
			return true
		}
	}
	return false
}

// BackupStatus reports the backup's progress; ok is false without a
// backup.
func (s *Server) BackupStatus() (backup.Status, bool) {
	if s.backup == nil {
		return backup.Status{}, false
	}
	return s.backup.Status(), true
}
