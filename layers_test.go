package airq_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/airq/airq"

// layer of each package path relative to the module root, from ARCHITECTURE.md.
var layers = map[string]int{
	"internal/ieee80211": 0, "internal/radiotap": 0, "internal/eventq": 0, "internal/answered": 0, "internal/ackmiss": 0, "internal/bssid": 0, "internal/pcap": 0, "radio": 0, "counter": 0,
	"internal/aeskw": 0, "internal/cmac": 0, "internal/ccm": 0, "internal/hextest": 0, "internal/readmetest": 0,
	"txq": 1, "aql": 1, "rate": 1, "scan": 1, "ctl": 1, "ccmp": 1, "rsn": 1, "bip": 1, "pmf": 1, "sae": 1,
	"nl80211": 1, "inject": 1, "tap": 1, "internal/netnstest": 1, "internal/link": 1,
	"internal/nice": 1,
	"bss":           2, "ap": 2,
	"shell": 3, "sim": 3, "metrics": 3, "monitor": 3, "config": 3,
	"cmd/airqd": 4, "cmd/airqctl": 4,
	"study": 4, "internal/tools": 4, // the gate's own commands (stdlib only)
}

// pure L1 packages and the core must never reach the OS edge.
var osEdge = map[string]bool{"nl80211": true, "inject": true, "tap": true, "internal/netnstest": true, "internal/link": true,
	"internal/nice": true}

// allowedThirdParty lists the non-stdlib modules a layer may import.
func allowedThirdParty(pkg, dep string) bool {
	switch {
	case pkg == "cmd/airqd":
		return true
	case osEdge[pkg]:
		return strings.HasPrefix(dep, "golang.org/x/sys") || strings.HasPrefix(dep, "github.com/mdlayher/") ||
			strings.HasPrefix(dep, "golang.org/x/net") || strings.HasPrefix(dep, "golang.org/x/sync")
	case pkg == "shell":
		return strings.HasPrefix(dep, "golang.org/x/") || strings.HasPrefix(dep, "github.com/mdlayher/") ||
			strings.HasPrefix(dep, "github.com/coreos/go-systemd/") || strings.HasPrefix(dep, "github.com/prometheus/")
	case pkg == "metrics":
		return strings.HasPrefix(dep, "github.com/prometheus/")
	case pkg == "sae": // SAE's curve and field arithmetic, pinned in go.mod
		return dep == "filippo.io/nistec" || dep == "filippo.io/bigmod"
	}
	return false
}

// allowed reports whether package pkg (relative path) may import module
// package dep (relative path), per ARCHITECTURE.md "Who may import whom".
// A subpackage follows its parent's rules (radio/radiotest is radio, and
// every package under study/ is study).
func allowed(pkg, dep string) bool {
	lp, okp := layer(pkg)
	ld, okd := layer(dep)
	if !okp || !okd {
		return false
	}
	pkg, dep = root(pkg), root(dep)
	switch {
	case dep == "study":
		return pkg == "study" // the studies are not part of the product
	case pkg == "study":
		return ld <= 1 && !osEdge[dep] // pure packages only: no core, no simulator
	case pkg == "cmd/airqd":
		return true
	case pkg == "cmd/airqctl":
		return ld == 0 || dep == "ctl"
	case lp == 0:
		return ld == 0
	case lp == 1:
		return ld == 0 || osEdge[pkg] && dep == "internal/link" || // the one link helper
			dep == pkg // a pure L1 subpackage (rsn/handshake) may use its parent
	case pkg == "bss": // one network: pure, and never the radio's core
		return ld == 0 || (ld == 1 && !osEdge[dep]) || dep == pkg // bss/bsstest uses its parent
	case pkg == "ap": // the radio's core holds its BSSes
		return ld == 0 || (ld == 1 && !osEdge[dep]) || dep == "bss"
	case pkg == "shell", pkg == "monitor", pkg == "config":
		return ld <= 2
	case pkg == "sim":
		return ld <= 2 && !osEdge[dep]
	case pkg == "metrics":
		return ld <= 1 // the control protocol and the TAP's counters, never the core
	}
	return false
}

// layer finds the layer of a package or of the package it is a subpackage of
// (fakes such as radio/radiotest sit with their parent).
func layer(rel string) (int, bool) {
	if r := root(rel); r != "" {
		return layers[r], true
	}
	return 0, false
}

// root is the entry of layers that rel is, or is a subpackage of.
func root(rel string) string {
	for p := rel; p != "" && p != "."; {
		if _, ok := layers[p]; ok {
			return p
		}
		i := strings.LastIndex(p, "/")
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return ""
}

func TestImportLayers(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-json=ImportPath,Imports,Standard,Module", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	type pkgInfo struct {
		ImportPath string
		Imports    []string
		Standard   bool
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	checked := 0
	for {
		var p pkgInfo
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if p.Standard || !strings.HasPrefix(p.ImportPath, module+"/") {
			continue
		}
		rel := strings.TrimPrefix(p.ImportPath, module+"/")
		if _, ok := layer(rel); !ok {
			t.Errorf("package %s has no layer in ARCHITECTURE.md", rel)
			continue
		}
		checked++
		for _, imp := range p.Imports {
			switch {
			case strings.HasPrefix(imp, module+"/"):
				dep := strings.TrimPrefix(imp, module+"/")
				if !allowed(rel, dep) {
					t.Errorf("%s imports %s: not allowed by the layer rules", rel, dep)
				}
			case !strings.Contains(strings.Split(imp, "/")[0], "."):
				// standard library
			default:
				if !allowedThirdParty(root(rel), imp) { // a subpackage follows its parent
					t.Errorf("%s imports %s: third-party modules are not allowed in this layer", rel, imp)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no module packages listed")
	}
}

func TestLayerRules(t *testing.T) {
	for _, c := range []struct {
		pkg, dep string
		ok       bool
	}{
		{"ap", "txq", true}, {"ap", "inject", false}, {"txq", "aql", false},
		{"sim", "nl80211", false}, {"shell", "sim", false}, {"radio", "txq", false},
		{"cmd/airqctl", "ctl", true}, {"cmd/airqctl", "ap", false}, {"nl80211/nl80211test", "radio", true},
		{"study/closedrounds/kernelmodel", "txq", true}, {"study/closedrounds/kernelmodel", "inject", false},
		{"study/closedrounds/kernelmodel", "sim", false}, {"study/closedrounds/bench-seed", "study/closedrounds/kernelmodel", true},
		{"cmd/airqd", "study/closedrounds/kernelmodel", false}, {"sim", "study/closedrounds/kernelmodel", false},
		{"cmd/airqd", "sim", true},
		{"metrics", "ctl", true}, {"metrics", "counter", true}, {"metrics", "ap", false}, {"metrics", "shell", false},
		{"ctl", "counter", true}, {"counter", "ctl", false},
		{"tap", "internal/link", true}, {"inject", "internal/link", true}, {"txq", "internal/link", false},
		{"ap", "internal/link", false}, {"monitor", "internal/link", true}, {"inject", "tap", false},
		{"monitor", "inject", true}, {"monitor", "ap", true}, {"monitor", "shell", false}, {"monitor", "sim", false},
		{"shell", "monitor", false}, {"config", "ap", true}, {"config", "monitor", false}, {"ap", "config", false},
		{"txq/policy", "txq", true}, {"txq/policy", "aql", false}, {"ap", "txq/policy", true},
		{"ap", "bss", true}, {"bss", "ap", false}, {"bss", "txq", true}, {"bss", "inject", false}, {"bss", "shell", false}, {"bss/bsstest", "bss", true}, {"bss/bsstest", "ap", false},
		{"sim", "bss", true}, {"shell", "bss", true},
		{"config", "internal/bssid", true}, {"monitor", "internal/bssid", true}, {"internal/bssid", "config", false},
		{"rsn/handshake", "rsn", true}, {"rsn", "ccmp", false}, {"ap", "sae", true}, {"sae", "rsn", false}, {"ccmp", "internal/ccm", true}, {"internal/ccm", "rsn", false},
	} {
		if got := allowed(c.pkg, c.dep); got != c.ok {
			t.Errorf("allowed(%s, %s) = %v, want %v", c.pkg, c.dep, got, c.ok)
		}
	}
}

// linkSetters are the ioctls that change a link's flags or MTU: only the
// link helper (internal/link) may use them, so that there is one way to
// bring a link up or down and one way to set its MTU.
var linkSetters = map[string]bool{"SIOCSIFFLAGS": true, "SIOCSIFMTU": true}

// TestOnlyTheLinkHelperSetsLinks walks the module's product files (tests
// and nested modules such as test/e2e/tools aside) for the link-setting
// ioctls.
func TestOnlyTheLinkHelperSetsLinks(t *testing.T) {
	users := map[string][]string{} // ioctl -> files
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || fileExists(filepath.Join(path, "go.mod"))) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && linkSetters[sel.Sel.Name] {
				users[sel.Sel.Name] = append(users[sel.Sel.Name], filepath.ToSlash(path))
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for ioctl, files := range users {
		for _, f := range files {
			if !strings.HasPrefix(f, "internal/link/") {
				t.Errorf("%s uses %s: links are set through internal/link only", f, ioctl)
			}
		}
	}
	if files := slices.Compact(users["SIOCSIFFLAGS"]); len(files) != 1 {
		t.Errorf("SIOCSIFFLAGS in %v, want exactly one file (internal/link)", files)
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func TestThirdPartyRules(t *testing.T) {
	for _, c := range []struct {
		pkg, dep string
		ok       bool
	}{
		{"sae", "filippo.io/nistec", true}, {"sae", "filippo.io/bigmod", true},
		{"sae", "golang.org/x/sys/unix", false}, {"rsn", "filippo.io/bigmod", false}, {"ap", "filippo.io/nistec", false},
	} {
		if got := allowedThirdParty(c.pkg, c.dep); got != c.ok {
			t.Errorf("allowedThirdParty(%s, %s) = %v, want %v", c.pkg, c.dep, got, c.ok)
		}
	}
}
