package hrana

import "fmt"

// Version is a Hrana protocol version. Later versions are supersets of
// earlier ones, so versions compare with < and >.
type Version int

// The protocol versions this package describes.
const (
	V1 Version = 1
	V2 Version = 2
	V3 Version = 3
)

// String returns the WebSocket subprotocol name of v ("hrana3").
func (v Version) String() string { return fmt.Sprintf("hrana%d", int(v)) }

// require returns a ProtocolError saying that what needs version min when v
// is older than min.
func (v Version) require(min Version, what string) error {
	if v < min {
		return Protocolf("%s is only supported in protocol version %s and higher", what, min)
	}
	return nil
}
