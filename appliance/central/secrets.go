package central

import "github.com/dwk/fleet/appliance/config"

// secrets are the resolved secrets of a config.
type secrets struct {
	fleet                 string
	authToken, adminToken string
	accessKey, secretKey  string
	shards                []shardSecrets
}

// shardSecrets are the resolved secrets of one object shard.
type shardSecrets struct{ authToken, adminToken string }

// resolveSecrets resolves every secret of cfg the central clients use. Its
// error is a config.Problems naming the path of each secret it could not
// resolve.
func resolveSecrets(cfg *config.Config) (secrets, error) {
	var ps config.Problems
	get := func(path string, s *config.Secret) string {
		v, err := s.Resolve()
		if err != nil {
			ps = append(ps, config.Problem{Path: path, Message: err.Error()})
		}
		return v
	}
	var out secrets
	out.fleet = get("fleet.secret", cfg.Fleet.Secret)
	if ls := cfg.Storage.LibSQL; ls != nil {
		out.authToken = get("storage.libsql.auth_token", ls.AuthToken)
		out.adminToken = get("storage.libsql.admin_token", ls.AdminToken)
		for i, sh := range ls.ObjectShards {
			path := shardPath(i)
			out.shards = append(out.shards, shardSecrets{
				authToken:  get(path+".auth_token", sh.AuthToken),
				adminToken: get(path+".admin_token", sh.AdminToken),
			})
		}
	}
	if s3 := cfg.Storage.S3; s3 != nil {
		out.accessKey = get("storage.s3.access_key", s3.AccessKey)
		out.secretKey = get("storage.s3.secret_key", s3.SecretKey)
	}
	if len(ps) > 0 {
		return secrets{}, ps
	}
	return out, nil
}
