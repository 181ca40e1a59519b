package objcentral

// Member is one replica as placement sees it.
type Member struct {
	// ID is the member id, as written in leases (lease.Config.Member).
	ID string
	// Addr is the internal address (host:port) requests are forwarded to.
	Addr string
}

// Members lists the replicas placement may choose for an object that has
// no live lease. The fleet's membership implements it.
type Members interface {
	// Ready returns the members in state ready: never draining or gone
	// ones; it may include this replica. Called on the request path: it
	// must be fast (cached), safe for concurrent use, and stable — every
	// replica and the load balancer should see the same list, spelled the
	// same way, most of the time.
	Ready() []Member
}

// StaticMembers is a fixed member list, for tests and single-replica
// fleets.
type StaticMembers []Member

var _ Members = StaticMembers(nil)

// Ready returns the list.
func (s StaticMembers) Ready() []Member { return s }
