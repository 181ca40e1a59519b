package libsql

import (
	"errors"
	"sync"
	"testing"
)

// TestConcurrentCreateAnswersOnceUsable: creations of one name racing
// each other all answer (created, or exists) only once the namespace can
// be used, as clients that create on first use from several replicas go
// straight on to send statements to it.
func TestConcurrentCreateAnswersOnceUsable(t *testing.T) {
	s := newNSStore(t.TempDir(), Config{}.withDefaults())
	if err := s.load(); err != nil {
		t.Fatal(err)
	}
	defer s.closeAll(t.Context())
	for round := range 20 {
		name := "race" + string(rune('a'+round))
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				created := s.create(name, nsConfig{})
				if created != nil && !errors.Is(created, errNamespaceExists) {
					t.Errorf("create %s: %v", name, created)
					return
				}
				if _, err := s.get(name); err != nil {
					t.Errorf("create %s answered %v, but the namespace cannot be used yet: %v", name, created, err)
				}
			}()
		}
		wg.Wait()
	}
}
