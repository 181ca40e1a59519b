package validators

import (
	"context"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestValidators(t *testing.T) {
	for _, c := range []struct {
		name string
		v    validator.String
		ok   []string
		bad  []string
	}{
		{"fleet", FleetName(), []string{"prod", "a", "eu-west-1"}, []string{"", "-a", "a-", "Prod", "a_b"}},
		{"namespace", NamespaceName(), []string{"db", "chat_1", "_x"}, []string{"", "-x", "A", "a.b"}},
		{"bucket", BucketName(), []string{"abc", "my.bucket-1"}, []string{"ab", "Abc", "a..b", "192.168.1.1", "-ab"}},
		{"member", MemberName(), []string{"10.0.0.5", "web-1", "host:8788"}, []string{"", "a b", "-x"}},
		{"address", HostAddress(), []string{"local", "10.0.0.5", "::1", "vm1.example.com"}, []string{"", "a b", "10.0.0.5:22", "user@host"}},
		{"listen", ListenAddress(), []string{"0.0.0.0:8787", ":8787", "[::]:1"}, []string{"8787", "host:0", "host:70000", "host:x"}},
		{"duration", Duration(time.Second), []string{"1s", "2m30s"}, []string{"", "5", "500ms", "soon"}},
		{"path", AbsPath(), []string{"/opt/dwk", "/a"}, []string{"/", "opt/dwk", "/opt/../etc", "/opt/dwk/"}},
		{"url", URL("http", "https"), []string{"http://127.0.0.1:8080", "https://x"}, []string{"127.0.0.1:8080", "ftp://x", "http://"}},
		{"pubkey", SSHPublicKey(), []string{"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl test"}, []string{"", "ssh-ed25519 nope"}},
		{"privkey", SSHPrivateKey(), nil, []string{"", "-----BEGIN OPENSSH PRIVATE KEY-----\nxx\n-----END OPENSSH PRIVATE KEY-----"}},
	} {
		for _, s := range c.ok {
			if d := run(c.v, types.StringValue(s)); d != 0 {
				t.Errorf("%s: %q rejected", c.name, s)
			}
		}
		for _, s := range c.bad {
			if d := run(c.v, types.StringValue(s)); d == 0 {
				t.Errorf("%s: %q accepted", c.name, s)
			}
		}
		if run(c.v, types.StringNull()) != 0 || run(c.v, types.StringUnknown()) != 0 {
			t.Errorf("%s: null or unknown rejected", c.name)
		}
	}
}

func run(v validator.String, val types.String) int {
	var resp validator.StringResponse
	v.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("x"), ConfigValue: val}, &resp)
	return resp.Diagnostics.ErrorsCount()
}
