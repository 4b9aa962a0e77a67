package config

import (
	flagpkg "flag"
	"os"
	"strings"
	"testing"
)

var update = flagpkg.Bool("update", false, "rewrite the README's table of hostapd's keys")

const (
	tableStart = "<!-- The table of hostapd's keys: made by config.KeyTableMarkdown; `go test ./config -run TestREADMEKeyTable -update` rewrites it. -->\n"
	tableEnd   = "<!-- end of the table of hostapd's keys -->\n"
)

// The README's table of hostapd's keys is the one this package makes, and
// every key of it has one row.
func TestREADMEKeyTable(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	i, j := strings.Index(readme, tableStart), strings.Index(readme, tableEnd)
	if i < 0 || j < i {
		t.Fatalf("README.md has no %q ... %q section", tableStart, tableEnd)
	}
	want := KeyTableMarkdown()
	if got := readme[i+len(tableStart) : j]; got != want {
		if *update {
			if err := os.WriteFile("../README.md", []byte(readme[:i+len(tableStart)]+want+readme[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("README.md's table of hostapd's keys differs from config.KeyTableMarkdown: run `go test ./config -run TestREADMEKeyTable -update`")
	}
	seen := map[string]bool{}
	for _, r := range HostapdKeyRows() {
		for _, k := range r.Keys {
			if seen[k] {
				t.Errorf("%s: in two rows", k)
			}
			seen[k] = true
			_, honoured := keys[k]
			if honoured != strings.HasPrefix(r.Class, "honoured") {
				t.Errorf("%s: row %q, but honoured is %v", k, r.Class, honoured)
			}
		}
	}
	for _, k := range hostapd210Keys(t) {
		if !seen[k] {
			t.Errorf("%s: no row", k)
		}
	}
}
