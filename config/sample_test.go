package config

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// sampleBlock is a comment of the example configuration and the key lines
// (set or commented out) that follow it.
type sampleBlock struct {
	text string // the comment's lines joined, without the #
	keys []string
	line int // the first key's
}

var sampleKeyLine = regexp.MustCompile(`^#?([a-z][a-z0-9_]*)=`)

// sampleBlocks splits the example into blocks: a blank line, or a comment
// after key lines, starts a new one.
func sampleBlocks(text string) []sampleBlock {
	var out []sampleBlock
	var cur sampleBlock
	flush := func() {
		if cur.text != "" || len(cur.keys) > 0 {
			out = append(out, cur)
		}
		cur = sampleBlock{}
	}
	for i, line := range strings.Split(text, "\n") {
		if m := sampleKeyLine.FindStringSubmatch(line); m != nil {
			if len(cur.keys) == 0 {
				cur.line = i + 1
			}
			cur.keys = append(cur.keys, m[1])
			continue
		}
		if strings.TrimSpace(line) == "" || len(cur.keys) > 0 {
			flush()
		}
		if c, ok := strings.CutPrefix(line, "#"); ok {
			cur.text += strings.TrimSpace(c) + " "
		}
	}
	flush()
	return out
}

// The example configuration's comments say what the key table does: every
// key it shows is one airqd accepts; a key whose comment says
// "reloadable" is one SIGHUP applies, and every key SIGHUP applies says
// so; one whose comment speaks of a restart is not; the header's list of
// what SIGHUP applies is the table's; the keys it names as stopping airqd
// are refused, and those it names as changing nothing are accepted with a
// warning.
func TestExampleConfigClaims(t *testing.T) {
	b, err := os.ReadFile("../configs/airqd.conf")
	if err != nil {
		t.Fatal(err)
	}
	blocks := sampleBlocks(string(b))
	for _, bl := range blocks {
		says := func(word string) bool { return strings.Contains(strings.ToLower(bl.text), word) }
		for _, name := range bl.keys {
			k, ok := Lookup(name)
			switch {
			case !ok:
				t.Errorf("line %d: %s is not a key airqd accepts", bl.line, name)
			case says("reloadable") && !k.Reload:
				t.Errorf("line %d: %s is said to be reloadable; SIGHUP does not apply it", bl.line, name)
			case !says("reloadable") && k.Reload:
				t.Errorf("line %d: %s is reloadable; its comment does not say so", bl.line, name)
			case says("restart") && k.Reload:
				t.Errorf("line %d: %s is said to need a restart; SIGHUP applies it", bl.line, name)
			}
		}
	}

	header := blocks[0].text
	sighup := header[strings.Index(header, "SIGHUP"):]
	var named []string
	for _, w := range regexp.MustCompile(`[a-z][a-z0-9_]*`).FindAllString(sighup, -1) {
		if _, ok := Lookup(w); ok && !slices.Contains(named, w) {
			named = append(named, w)
		}
	}
	slices.Sort(named)
	if !slices.Equal(named, Reloadable()) {
		t.Errorf("the header says SIGHUP applies %v; it applies %v", named, Reloadable())
	}

	refused := listAfter(t, header, "does not implement (")
	for _, name := range refused {
		_, ps := Parse("claim.conf", []byte(name+"=1\n"))
		if _, ok := Lookup(name); ok || ps.Err() == nil || !slices.Contains(Known(), name) {
			t.Errorf("the header says %s stops airqd; it does not (%v)", name, ps)
		}
	}
	for _, pattern := range listAfter(t, header, "change nothing for airq (") {
		for _, name := range Known() {
			if !keyMatch(pattern, name) {
				continue
			}
			if _, ps := Parse("claim.conf", []byte(name+"=1\n")); ps.Err() != nil || len(ps) != 1 {
				t.Errorf("the header says %s is accepted with a warning: %v", name, ps)
			}
		}
	}
}

// listAfter is the comma-separated list that follows intro in text, up to
// the closing parenthesis, without its "...".
func listAfter(t *testing.T, text, intro string) []string {
	t.Helper()
	_, rest, ok := strings.Cut(text, intro)
	list, _, ok2 := strings.Cut(rest, ")")
	if !ok || !ok2 {
		t.Fatalf("the header has no %q list", intro)
	}
	var out []string
	for item := range strings.SplitSeq(list, ",") {
		if item = strings.TrimSpace(item); item != "..." {
			out = append(out, item)
		}
	}
	return out
}

// keyMatch matches a key against a name or a pattern such as logger_*.
func keyMatch(pattern, name string) bool {
	if prefix, wild := strings.CutSuffix(pattern, "*"); wild {
		return strings.HasPrefix(name, prefix)
	}
	return name == pattern
}
