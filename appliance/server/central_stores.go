package server

import "github.com/dwk/fleet/appliance/server/storeset"

// centralStores are the central-mode stores of a fleet, and the object
// runtime over them.
type centralStores struct {
	*storeset.Central
	objects ObjectNamespaces
}

var _ stores = (*centralStores)(nil)

func (s *centralStores) Objects() ObjectNamespaces { return s.objects }
