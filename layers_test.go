package airq_test

import (
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/airq/airq"

// layer of each package path relative to the module root, from ARCHITECTURE.md.
var layers = map[string]int{
	"internal/ieee80211": 0, "internal/radiotap": 0, "internal/eventq": 0, "radio": 0,
	"internal/aeskw": 0, "internal/cmac": 0, "internal/ccm": 0,
	"txq": 1, "aql": 1, "rate": 1, "scan": 1, "ctl": 1, "ccmp": 1, "rsn": 1,
	"nl80211": 1, "inject": 1, "tap": 1, "internal/netnstest": 1,
	"ap":      2,
	"runtime": 3, "sim": 3,
	"cmd/airqd": 4, "cmd/airqctl": 4, "cmd": 4,
}

// pure L1 packages and the core must never reach the OS edge.
var osEdge = map[string]bool{"nl80211": true, "inject": true, "tap": true, "internal/netnstest": true}

// allowedThirdParty lists the non-stdlib modules a layer may import.
func allowedThirdParty(pkg, dep string) bool {
	switch {
	case pkg == "cmd/airqd", pkg == "cmd":
		return true
	case osEdge[pkg]:
		return strings.HasPrefix(dep, "golang.org/x/sys") || strings.HasPrefix(dep, "github.com/mdlayher/") ||
			strings.HasPrefix(dep, "golang.org/x/net") || strings.HasPrefix(dep, "golang.org/x/sync")
	case pkg == "runtime":
		return strings.HasPrefix(dep, "golang.org/x/") || strings.HasPrefix(dep, "github.com/mdlayher/") ||
			strings.HasPrefix(dep, "github.com/coreos/go-systemd/") || strings.HasPrefix(dep, "github.com/prometheus/")
	}
	return false
}

// allowed reports whether package pkg (relative path) may import module
// package dep (relative path), per ARCHITECTURE.md "Who may import whom".
// A subpackage follows its parent's rules (sim/kernelmodel is sim).
func allowed(pkg, dep string) bool {
	lp, okp := layer(pkg)
	ld, okd := layer(dep)
	if !okp || !okd {
		return false
	}
	pkg, dep = root(pkg), root(dep)
	switch {
	case pkg == "cmd/airqd", pkg == "cmd":
		return true
	case pkg == "cmd/airqctl":
		return ld == 0 || dep == "ctl"
	case lp == 0:
		return ld == 0
	case lp == 1:
		return ld == 0 || dep == pkg // a pure L1 subpackage (rsn/handshake) may use its parent
	case pkg == "ap":
		return ld == 0 || (ld == 1 && !osEdge[dep])
	case pkg == "runtime":
		return ld <= 2
	case pkg == "sim":
		return ld <= 2 && !osEdge[dep]
	}
	return false
}

// layer finds the layer of a package or of the package it is a subpackage of
// (fakes such as radio/radiotest sit with their parent; commands under cmd/
// other than the two named, such as studies, are L4 like the daemon).
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
				if !allowedThirdParty(rel, imp) {
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
		{"sim", "nl80211", false}, {"runtime", "sim", false}, {"radio", "txq", false},
		{"cmd/airqctl", "ctl", true}, {"cmd/airqctl", "ap", false}, {"nl80211/nl80211test", "radio", true},
		{"sim/kernelmodel", "txq", true}, {"sim/kernelmodel", "inject", false}, {"cmd/bench-seed", "sim", true},
		{"rsn/handshake", "rsn", true}, {"rsn", "ccmp", false}, {"ccmp", "internal/ccm", true}, {"internal/ccm", "rsn", false},
	} {
		if got := allowed(c.pkg, c.dep); got != c.ok {
			t.Errorf("allowed(%s, %s) = %v, want %v", c.pkg, c.dep, got, c.ok)
		}
	}
}
