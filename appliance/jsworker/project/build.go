package project

import (
	"context"
	"fmt"
	"io"

	"github.com/dwk/fleet/appliance/jsworker/artifact"
)

// WriteArtifact builds the project of the wrangler file at path (runs its
// build command, bundles and compiles it, as Load does) and writes it to
// out as an artifact, returning the project and the artifact's content
// hash: what `dwk bundle` does. The same project gives the same bytes.
// An artifact at path is refused: it is built already.
func WriteArtifact(ctx context.Context, path string, opts Options, out io.Writer) (*Project, string, error) {
	if IsArtifact(path) {
		return nil, "", fmt.Errorf("%s is an artifact already: copy it, or bundle the project's directory", path)
	}
	p, err := Load(ctx, path, opts)
	if err != nil {
		return nil, "", err
	}
	hash, err := artifact.Write(ctx, p.Wrangler, p.Bundle, out)
	if err != nil {
		return nil, "", err
	}
	return p, hash, nil
}
