// Package release checks what `make release-snapshot` builds against the
// layout the Terraform registry documents for a provider release
// (developer.hashicorp.com/terraform/registry/providers/publishing):
//
//   - terraform-provider-dwk_<version>_<os>_<arch>.zip for every platform,
//     each holding only the binary terraform-provider-dwk_v<version>
//     (with .exe on Windows);
//   - terraform-provider-dwk_<version>_manifest.json, the repository's
//     terraform-registry-manifest.json, declaring protocol 6.0, which is
//     what the provider serves (providerserver, protocol version 6);
//   - terraform-provider-dwk_<version>_SHA256SUMS listing the sha256 of
//     every zip and of the manifest, and nothing else.
//
// TestReleaseSnapshot runs `make release-snapshot` (goreleaser, from
// scripts/tools.sh goreleaser) on .goreleaser.yml narrowed to this
// machine's platform, into a temp dir, so make test stays fast; plain
// `make release-snapshot` builds every platform into dist/. DWK_RELEASE_DIST names a dist/ to check instead of building one.
package release

import (
	"archive/zip"
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/dwk/fleet/test/needtool"
)

// root is the repository root (the test runs in test/release).
var root = func() string {
	abs, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		panic(err)
	}
	return abs
}()

func TestReleaseSnapshot(t *testing.T) {
	version := run(t, filepath.Join(root, "scripts", "provider-version.sh"))
	dist := os.Getenv("DWK_RELEASE_DIST")
	platforms := map[string]bool{}
	if dist == "" {
		if testing.Short() {
			t.Skip("builds the provider with goreleaser; skipped with -short")
		}
		dist = snapshot(t, version)
		platforms[runtime.GOOS+"_"+runtime.GOARCH] = true
	}
	checkRelease(t, dist, version, platforms)
}

// snapshot runs goreleaser on .goreleaser.yml narrowed to this platform,
// with its dist in a temp dir, and returns the dist.
func snapshot(t *testing.T, version string) string {
	gobin := run(t, "go", "env", "GOBIN")
	if gobin == "" {
		gobin = filepath.Join(strings.Split(run(t, "go", "env", "GOPATH"), string(os.PathListSeparator))[0], "bin")
	}
	needtool.File(t, "goreleaser", filepath.Join(gobin, "goreleaser"), "scripts/tools.sh goreleaser")
	b, err := os.ReadFile(filepath.Join(root, ".goreleaser.yml"))
	if err != nil {
		t.Fatal(err)
	}
	dist := filepath.Join(t.TempDir(), "dist")
	cfg := filepath.Join(t.TempDir(), "goreleaser.yml")
	narrowed := "dist: " + dist + "\n" + onePlatform(t, string(b), runtime.GOOS+"_"+runtime.GOARCH)
	if err := os.WriteFile(cfg, []byte(narrowed), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("make", "--no-print-directory", "release-snapshot", "GORELEASER_CONFIG="+cfg, "PROVIDER_VERSION="+version)
	cmd.Dir = root
	cmd.Env = withoutMake(os.Environ())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make release-snapshot: %v\n%s", err, out)
	}
	return dist
}

// withoutMake is env without the variables of a make this test may run
// under, which would leak into the make it starts.
func withoutMake(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "MAKE") {
			out = append(out, kv)
		}
	}
	return out
}

// onePlatform replaces the build's targets list with platform.
func onePlatform(t *testing.T, cfg, platform string) string {
	re := regexp.MustCompile(`(?m)^(\s+)targets:\n(?:\s+- \S+\n)+`)
	if !re.MatchString(cfg) {
		t.Fatal(".goreleaser.yml has no builds[].targets list to narrow")
	}
	return re.ReplaceAllString(cfg, "${1}targets: ["+platform+"]\n")
}

// checkRelease checks dist's zips, manifest and SHA256SUMS; want, when not
// empty, is the platforms that must be there.
func checkRelease(t *testing.T, dist, version string, want map[string]bool) {
	const name = "terraform-provider-dwk"
	prefix := name + "_" + version + "_"
	sums := readSums(t, filepath.Join(dist, prefix+"SHA256SUMS"))

	// The manifest: the repository's, under its release name, declaring
	// the protocol the provider serves.
	manifest := prefix + "manifest.json"
	mb, err := os.ReadFile(filepath.Join(dist, manifest))
	if err != nil {
		t.Fatalf("no %s in dist: %v", manifest, err)
	}
	var got, repo any
	repoB, err := os.ReadFile(filepath.Join(root, "terraform-registry-manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if json.Unmarshal(mb, &got) != nil || json.Unmarshal(repoB, &repo) != nil || !reflect.DeepEqual(got, repo) {
		t.Errorf("%s = %s, want terraform-registry-manifest.json %s", manifest, mb, repoB)
	}
	wantManifest := map[string]any{"version": 1.0, "metadata": map[string]any{"protocol_versions": []any{"6.0"}}}
	if !reflect.DeepEqual(got, wantManifest) {
		t.Errorf("manifest %s, want version 1 with protocol_versions [\"6.0\"]", mb)
	}

	zipName := regexp.MustCompile(`^` + regexp.QuoteMeta(prefix) + `([a-z0-9]+)_([a-z0-9]+)\.zip$`)
	entries, err := os.ReadDir(dist)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{manifest: true}
	found := map[string]bool{}
	for _, e := range entries {
		m := zipName.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		found[m[1]+"_"+m[2]] = true
		listed[e.Name()] = true
		bin := name + "_v" + version
		if m[1] == "windows" {
			bin += ".exe"
		}
		checkZip(t, filepath.Join(dist, e.Name()), bin)
	}
	if len(found) == 0 {
		t.Fatalf("no %s<os>_<arch>.zip in %s", prefix, dist)
	}
	for p := range want {
		if !found[p] {
			t.Errorf("no archive for %s in %s", p, dist)
		}
	}
	// SHA256SUMS: exactly the zips and the manifest, each with its real sum.
	for f := range listed {
		sum, ok := sums[f]
		if !ok {
			t.Errorf("SHA256SUMS does not list %s", f)
			continue
		}
		if got := fileSum(t, filepath.Join(dist, f)); got != sum {
			t.Errorf("SHA256SUMS says %s has %s; it has %s", f, sum, got)
		}
	}
	for f := range sums {
		if !listed[f] {
			t.Errorf("SHA256SUMS lists %s, which is not a release archive or the manifest", f)
		}
	}
}

// checkZip checks that the archive holds exactly bin, executable.
func checkZip(t *testing.T, path, bin string) {
	z, err := zip.OpenReader(path)
	if err != nil {
		t.Errorf("%s: %v", filepath.Base(path), err)
		return
	}
	defer z.Close()
	var names []string
	for _, f := range z.File {
		names = append(names, f.Name)
	}
	if len(names) != 1 || names[0] != bin {
		t.Errorf("%s holds %v, want only %s", filepath.Base(path), names, bin)
		return
	}
	if z.File[0].Mode()&0o111 == 0 && !strings.HasSuffix(bin, ".exe") {
		t.Errorf("%s: %s is not executable (mode %v)", filepath.Base(path), bin, z.File[0].Mode())
	}
}

// readSums parses a SHA256SUMS file ("<hex>  <name>" lines).
func readSums(t *testing.T, path string) map[string]string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("no SHA256SUMS: %v", err)
	}
	defer f.Close()
	sums := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, file, ok := strings.Cut(sc.Text(), "  ")
		if !ok || len(sum) != 64 {
			t.Errorf("%s: bad line %q", filepath.Base(path), sc.Text())
			continue
		}
		sums[file] = sum
	}
	return sums
}

func fileSum(t *testing.T, path string) string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func run(t *testing.T, name string, args ...string) string {
	out, err := exec.Command(name, args...).Output()
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return strings.TrimSpace(string(out))
}
