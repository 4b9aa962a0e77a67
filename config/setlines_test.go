package config

import (
	"slices"
	"strings"
	"testing"
)

// A SET line goes to the end of its section: the first section's before
// the first bss= line, a section's before the next one, a section the
// file lacks at the end under its own bss= line.
func TestMergeSections(t *testing.T) {
	file := "ssid=main\nchannel=6\nbss=guest\nssid=guest\nbss=iot\nssid=iot"
	for _, c := range []struct{ name, extra, want string }{
		{"none", "", file},
		{"the radio's", "beacon_int=200\n",
			"ssid=main\nchannel=6\nbeacon_int=200\nbss=guest\nssid=guest\nbss=iot\nssid=iot\n"},
		{"guest's and the radio's", "beacon_int=200\nbss=guest\nmax_num_sta=5\nignore_broadcast_ssid=1\n",
			"ssid=main\nchannel=6\nbeacon_int=200\nbss=guest\nssid=guest\nmax_num_sta=5\nignore_broadcast_ssid=1\nbss=iot\nssid=iot\n"},
		{"the last section's", "bss=iot\nmax_num_sta=3",
			"ssid=main\nchannel=6\nbss=guest\nssid=guest\nbss=iot\nssid=iot\nmax_num_sta=3\n"},
		{"a section not in the file", "bss=lab\nssid=lab\n", file + "\nbss=lab\nssid=lab\n"},
	} {
		if got := string(MergeSections([]byte(file), []byte(c.extra))); got != c.want {
			t.Errorf("%s: got\n%s\nwant\n%s", c.name, got, c.want)
		}
	}
	if got := string(MergeSections(nil, []byte("ssid=a\nbss=b\nssid=b\n"))); got != "ssid=a\nbss=b\nssid=b\n" {
		t.Errorf("no file: %q", got)
	}
}

// FuzzMergeSections: the file's lines stay, in order; each line of extra
// is added once, at the end of the section extra names it in (a section
// the file lacks added with its bss= line).
func FuzzMergeSections(f *testing.F) {
	f.Add([]byte("ssid=m\nbss=guest\nssid=g\n"), []byte("beacon_int=200\nbss=guest\nmax_num_sta=5\nbss=lab\nssid=l"))
	f.Add([]byte("bss=a\nbss=b\nx"), []byte("bss=b\n\nbss=a\ny=1\n"))
	f.Add([]byte(""), []byte("k=v\n"))
	f.Fuzz(func(t *testing.T, file, extra []byte) {
		fileLines, extraLines := linesOf(file), linesOf(extra)
		names := map[string]bool{"": true}
		for _, l := range fileLines {
			if name, ok := strings.CutPrefix(l, "bss="); ok {
				if names[name] {
					return // a name twice, or an empty one: the file's checks refuse it
				}
				names[name] = true
			}
		}
		want, section, added := map[string][]string{}, "", 0
		for _, l := range extraLines {
			if name, ok := strings.CutPrefix(l, "bss="); ok {
				if name == "" {
					return
				}
				section = name
				continue
			}
			if !names[section] {
				names[section] = true
				added++ // its bss= line
			}
			want[section] = append(want[section], l)
			added++
		}
		out := linesOf(MergeSections(file, extra))
		if len(out) != len(fileLines)+added {
			t.Fatalf("%d lines, want %d + %d:\n%q", len(out), len(fileLines), added, out)
		}
		got, section, next := map[string][]string{}, "", 0
		for _, l := range out {
			if next < len(fileLines) && l == fileLines[next] {
				next++
			}
			if name, ok := strings.CutPrefix(l, "bss="); ok {
				section = name
				continue
			}
			got[section] = append(got[section], l)
		}
		if next != len(fileLines) {
			t.Fatalf("the file's lines are not all kept in order:\n%q", out)
		}
		for name, w := range want {
			if g := got[name]; len(g) < len(w) || !slices.Equal(g[len(g)-len(w):], w) {
				t.Fatalf("section %q is %q, want it to end with %q", name, g, w)
			}
		}
	})
}

// linesOf is text's lines, without a last empty one.
func linesOf(text []byte) []string {
	if len(text) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
}
