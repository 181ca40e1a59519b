package worker

// State is an object's view of itself: its id, storage, alarm and
// WebSockets. The object runtime fills it in; see the objects helper's design.
type State struct {
	// ID is the object's id.
	ID ObjectID
}
