package frontdoor

import (
	"fmt"
	"strings"

	"github.com/dwk/fleet/appliance/config"
)

// placeholderFor returns s as a Caddy config value: a secret read from the
// environment stays a placeholder ({env.NAME}), so the rendered config does
// not carry it; any other secret is resolved and its braces escaped, so
// Caddy does not mistake part of it for a placeholder. The value is
// resolved in every case, so that a missing secret fails here, not in
// Caddy.
func placeholderFor(s *config.Secret) (string, error) {
	v, err := s.Resolve()
	if err != nil {
		return "", err
	}
	if s != nil && s.Env != "" {
		if strings.ContainsAny(s.Env, "{}") {
			return "", fmt.Errorf("environment variable name %q has braces", s.Env)
		}
		return "{env." + s.Env + "}", nil
	}
	return escapeBraces(v), nil
}

// escapeBraces escapes { and } the way Caddy's replacer unescapes them.
func escapeBraces(s string) string {
	return strings.NewReplacer("{", `\{`, "}", `\}`).Replace(s)
}
