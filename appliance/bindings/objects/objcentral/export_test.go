package objcentral

import "github.com/dwk/fleet/appliance/worker"

// PackOf is the name of the pack id's rows go to.
func (s *Store) PackOf(id worker.ObjectID) string { return packName(s.prefix, packOf(id)) }
