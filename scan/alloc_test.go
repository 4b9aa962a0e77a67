package scan

import (
	"testing"
	"time"
)

func TestZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates; make norace runs this test without it")
	}
	p := usPlanner(t, func(c *Config) { c.MinHome = 1 })
	n := time.Duration(1)
	if a := testing.AllocsPerRun(1000, func() {
		p.Next(n*100*tu+ms, (n+1)*100*tu, n%3 == 0)
		n++
	}); a != 0 {
		t.Errorf("Planner.Next: %v allocs", a)
	}
	tab := NewTable(TableConfig{Freqs: []int{2412, 2437}})
	f := beaconSpec{ssid: "neighbour", channel: 6, ht: true, vht: true}.frame(bssA, false)
	ri := rx(2437, -50)
	tab.Update(0, f, ri)
	if a := testing.AllocsPerRun(1000, func() {
		n++
		tab.Update(n, f, ri)
	}); a != 0 {
		t.Errorf("Table.Update of a known BSS: %v allocs", a)
	}
}

func BenchmarkNext(b *testing.B) {
	p, _ := New(Config{Channels: usPlan(), Home: 5180, BeaconInterval: 100 * tu, Retune: ms, MinHome: 1})
	b.ReportAllocs()
	n := time.Duration(1)
	for b.Loop() {
		p.Next(n*100*tu, (n+1)*100*tu, false)
		n++
	}
}

func BenchmarkUpdate(b *testing.B) {
	tab := NewTable(TableConfig{Freqs: []int{2437}})
	f := beaconSpec{ssid: "neighbour", channel: 6, ht: true, vht: true}.frame(bssA, false)
	ri := rx(2437, -50)
	b.ReportAllocs()
	n := time.Duration(0)
	for b.Loop() {
		tab.Update(n, f, ri)
		n++
	}
}
