package discover

import (
	"os/exec"
	"strings"
	"testing"
)

// TestRootDependencies checks that golang.org/x/net, which this package
// imports, stays out of the dependencies of package weblink: programs that
// only read headers keep a small binary. The check is against discover too,
// so that it would notice if `go list` found nothing at all.
func TestRootDependencies(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to list dependencies: %v", err)
	}
	deps := func(pkg string) []string {
		out, err := exec.Command(goTool, "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		return strings.Fields(string(out))
	}
	hasXNet := func(pkgs []string) string {
		for _, p := range pkgs {
			if strings.HasPrefix(p, "golang.org/x/net/") {
				return p
			}
		}
		return ""
	}
	if p := hasXNet(deps("github.com/weblinking/weblink")); p != "" {
		t.Errorf("package weblink depends on %s; only discover may import golang.org/x/net", p)
	}
	if hasXNet(deps("github.com/weblinking/weblink/discover")) == "" {
		t.Error("go list -deps finds no golang.org/x/net package in discover: the check above proves nothing")
	}
}
