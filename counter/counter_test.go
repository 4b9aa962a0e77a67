package counter

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

var (
	keyRE  = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	nameRE = regexp.MustCompile(`^airq_[a-z][a-z0-9_]*$`)
)

// reasons is the one set of reason names.
var reasons = map[string]bool{ReasonMalformed: true, ReasonBadFCS: true, ReasonNotForUs: true, ReasonNoStation: true,
	ReasonDuplicate: true, ReasonFragment: true, ReasonUnauthorized: true, ReasonNoBuffer: true, ReasonReplyBudget: true,
	ReasonTxFailed: true, ReasonQueueFull: true, ReasonOverlimit: true, ReasonOvermemory: true, ReasonCoDel: true,
	ReasonFlushed: true, ReasonAssocRetry: true, ReasonAssocEarly: true, ReasonAssocPending: true,
	ReasonAMSDUMalformed: true, ReasonAMSDUInjected: true, ReasonUnprotected: true, ReasonUndecryptable: true,
	ReasonReplay: true, ReasonMICFailure: true, ReasonFourAddress: true, ReasonUnprotectedDeauth: true,
	ReasonUnprotectedDisassoc: true, ReasonUnprotectedAction: true, ReasonGroupRobust: true, ReasonProtectedUnexpected: true}

// The table's rules: every ID has an entry; keys are unique; a family of
// one has no label, a family of several tells each member apart by its
// label; families that count losses use reason and the shared names.
func TestTable(t *testing.T) {
	keys := map[string]ID{}
	names := map[string]*Family{}
	for id := range NumIDs {
		d := id.Desc()
		if !keyRE.MatchString(d.Key) || d.Family == nil {
			t.Fatalf("counter %d: key %q, family %v", id, d.Key, d.Family)
		}
		if other, ok := keys[d.Key]; ok {
			t.Errorf("%s: key also used by counter %d", d.Key, other)
		}
		keys[d.Key] = id
		f := d.Family
		if g, ok := names[f.Name]; ok && g != f {
			t.Errorf("%s: two families named %s", d.Key, f.Name)
		}
		names[f.Name] = f
	}
	for _, f := range Families() {
		checkFamily(t, f)
	}
}

func checkFamily(t *testing.T, f *Family) {
	t.Helper()
	if !nameRE.MatchString(f.Name) || f.Help == "" || !strings.HasSuffix(f.Help, ".") {
		t.Errorf("%s: bad name, or help %q", f.Name, f.Help)
	}
	if total := strings.HasSuffix(f.Name, "_total"); total != (f.Kind == Counter) {
		t.Errorf("%s is a %s: a counter's name ends in _total, a gauge's does not", f.Name, f.Kind)
	}
	ms := Members(f)
	if f.Label == "" {
		if len(ms) != 1 || ms[0].Desc().Value != "" {
			t.Errorf("%s: no label, %d members (first value %q)", f.Name, len(ms), ms[0].Desc().Value)
		}
		return
	}
	if !keyRE.MatchString(f.Label) || f.Label == "why" || len(ms) < 2 {
		t.Errorf("%s: label %q with %d members", f.Name, f.Label, len(ms))
	}
	lossy := strings.Contains(f.Name, "drops")
	if lossy != (f.Label == "reason") {
		t.Errorf("%s: label %q; families of losses, and only they, use reason", f.Name, f.Label)
	}
	seen := map[string]bool{}
	for _, id := range ms {
		v := id.Desc().Value
		if !keyRE.MatchString(v) || seen[v] {
			t.Errorf("%s: member %s has value %q (empty, malformed or repeated)", f.Name, id, v)
		}
		seen[v] = true
		if f.Label == "reason" && !reasons[v] {
			t.Errorf("%s: reason %q is not one of the Reason names", f.Name, v)
		}
	}
}

func TestByKey(t *testing.T) {
	for id := range NumIDs {
		if got, ok := ByKey(id.Key()); !ok || got != id {
			t.Errorf("ByKey(%q) = %v, %v", id.Key(), got, ok)
		}
	}
	if _, ok := ByKey("colour"); ok {
		t.Error("an unknown key found")
	}
	if !strings.HasPrefix(NumIDs.String(), "counter(") {
		t.Errorf("out of range: %s", NumIDs)
	}
}

func TestSetString(t *testing.T) {
	var s Set
	s[RxFrames], s[Deauths] = 3, 1
	if got := s.String(); got != "rx_frames=3 deauths=1" {
		t.Errorf("String() = %q", got)
	}
}

// The README's metrics table names every family, for dashboards.
func TestREADMEListsFamilies(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range Families() {
		if !strings.Contains(string(b), "`"+f.Name) {
			t.Errorf("README.md does not name %s", f.Name)
		}
	}
}
