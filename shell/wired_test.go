package shell

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/airq/airq/radio/radiotest"
)

// fakePort is a wired side that records its bridge and whether it is
// closed.
type fakePort struct {
	*radiotest.Device
	name, bridge string
	closed       int
	refuseBridge bool
}

func (p *fakePort) JoinBridge(bridge string) error {
	if p.refuseBridge {
		return errors.New("no such bridge")
	}
	p.bridge = bridge
	return nil
}

func (p *fakePort) Close() error {
	p.closed++
	return p.Device.Close()
}

// fakeTAPs opens fakePorts, refusing the TAP named refuse and the bridge
// of the side named noBridge.
type fakeTAPs struct {
	opened           []*fakePort
	refuse, noBridge string
}

func (f *fakeTAPs) open(s WiredSide) (*fakePort, error) {
	if s.TAP == f.refuse {
		return nil, errors.New("device or resource busy")
	}
	p := &fakePort{Device: radiotest.New(), name: s.TAP, refuseBridge: s.TAP == f.noBridge}
	f.opened = append(f.opened, p)
	return p, nil
}

var threeSides = []WiredSide{
	{BSS: "wlan0", TAP: "airq-tap0", Bridge: "br-lan"},
	{BSS: "guest", TAP: "guest", Bridge: "br-guest"},
	{BSS: "iot", TAP: "iot"},
}

// Each BSS's TAP is opened in the radio's order and joins its own bridge;
// a side without bridge= joins none.
func TestOpenWiredOpensEachBSSsTAP(t *testing.T) {
	var f fakeTAPs
	ports, err := openWired(threeSides, f.open)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ports {
		got = append(got, p.name+">"+p.bridge)
	}
	if want := []string{"airq-tap0>br-lan", "guest>br-guest", "iot>"}; !slices.Equal(got, want) {
		t.Errorf("opened %v, want %v", got, want)
	}
	if err := closeWired(ports); err != nil {
		t.Fatal(err)
	}
	for _, p := range ports {
		if p.closed != 1 {
			t.Errorf("%s closed %d times, want 1", p.name, p.closed)
		}
	}
}

// A side that fails (its TAP, or its bridge) fails the start naming its
// BSS, and the TAPs opened before it are closed (removed).
func TestOpenWiredFailureClosesWhatItOpened(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    fakeTAPs
		want string
		open int
	}{
		{"a TAP refused", fakeTAPs{refuse: "iot"}, "bss iot: device or resource busy", 2},
		{"a bridge missing", fakeTAPs{noBridge: "guest"}, "bss guest: no such bridge", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ports, err := openWired(threeSides, tc.f.open)
			if err == nil || err.Error() != tc.want || ports != nil {
				t.Fatalf("openWired = %v, %v; want the error %q", ports, err, tc.want)
			}
			if len(tc.f.opened) != tc.open {
				t.Fatalf("%d opened, want %d", len(tc.f.opened), tc.open)
			}
			for _, p := range tc.f.opened {
				if p.closed != 1 {
					t.Errorf("%s closed %d times, want 1", p.name, p.closed)
				}
			}
		})
	}
}

// runWired opens every BSS's side, tells the daemon what it opened before
// the core runs, runs the core on all of them in the radio's order, and
// closes every side when the core stops.
func TestRunWired(t *testing.T) {
	var f fakeTAPs
	open := func(s []WiredSide) ([]*fakePort, error) { return openWired(s, f.open) }
	var told []*fakePort
	var ran []Wired
	err := runWired(threeSides, open, func(ps []*fakePort) { told = ps }, func(w []Wired) error {
		if len(told) != 3 {
			t.Errorf("the core ran before the daemon was told of the sides")
		}
		ran = w
		return errors.New("radio read: gone")
	})
	if err == nil || !strings.Contains(err.Error(), "radio read: gone") {
		t.Errorf("err = %v, want the core's", err)
	}
	if len(f.opened) != 3 || len(ran) != 3 {
		t.Fatalf("opened %v, ran on %v", f.opened, ran)
	}
	for i, p := range f.opened {
		if ran[i] != Wired(p) || p.closed == 0 {
			t.Errorf("side %d: ran on %v, want %s; closed %d times", i, ran[i], p.name, p.closed)
		}
	}
}
